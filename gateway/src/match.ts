// Matches a request path against the routing table. The table is a trie of template segments built once;
// at each node a literal child is tried before `*`, and `*` before `**`, backtracking when a branch fails.
// That makes the winner deterministic: at the first segment where two templates differ, the more specific
// one wins, so literal segments beat variables and a longer literal prefix beats a shorter one.
import type { PathTemplate } from "./template/parse.ts";

/** Why a request path has no route: 404 (unknown path), 405 (known path, other methods), 400 (bad escape). */
export class MatchError extends Error {
  override name = "MatchError";
  constructor(
    readonly status: 400 | 404 | 405,
    message: string,
    /** For 405: the methods the path accepts. */
    readonly allow: string[] = [],
  ) {
    super(message);
  }
}

/** Two rules that would answer the same request; found when the table is built. */
export class RouteConflictError extends Error {
  override name = "RouteConflictError";
}

export interface MatcherEntry<T> {
  /** Upper-case HTTP method (GET, POST, … or a custom kind). */
  httpMethod: string;
  template: PathTemplate;
  value: T;
  /** For conflict messages: the RPC and its template source. */
  describe: string;
}

export interface RouteMatch<T> {
  value: T;
  template: PathTemplate;
  /** Percent-decoded values of `template.variables`, in their order. */
  variables: string[];
}

interface Leaf<T> {
  byMethod: Map<string, MatcherEntry<T>>;
}

interface Node<T> {
  literals: Map<string, Node<T>>;
  wildcard: Node<T> | undefined;
  /** A `**` child; it is always a leaf because `**` is last. */
  deep: Node<T> | undefined;
  /** Routes ending here, by verb ("" when the template has none). */
  ends: Map<string, Leaf<T>>;
}

const newNode = <T>(): Node<T> => ({ literals: new Map(), wildcard: undefined, deep: undefined, ends: new Map() });

export interface Matcher<T> {
  /** Finds the route for a method and a path (without the query string); throws `MatchError`. */
  match(httpMethod: string, path: string): RouteMatch<T>;
}

export function createMatcher<T>(entries: Iterable<MatcherEntry<T>>): Matcher<T> {
  const root = newNode<T>();
  const verbs = new Set<string>();
  for (const entry of entries) {
    let node = root;
    for (const seg of entry.template.segments) {
      if (seg.kind === "literal") {
        let next = node.literals.get(seg.value);
        if (!next) node.literals.set(seg.value, (next = newNode()));
        node = next;
      } else if (seg.kind === "wildcard") node = node.wildcard ??= newNode();
      else node = node.deep ??= newNode();
    }
    const verb = entry.template.verb ?? "";
    if (verb) verbs.add(verb);
    let leaf = node.ends.get(verb);
    if (!leaf) node.ends.set(verb, (leaf = { byMethod: new Map() }));
    const method = entry.httpMethod.toUpperCase();
    const existing = leaf.byMethod.get(method);
    if (existing) {
      throw new RouteConflictError(`${entry.describe} conflicts with ${existing.describe} (${method})`);
    }
    leaf.byMethod.set(method, entry);
  }

  // Depth-first search in priority order; `accept` decides whether a leaf answers.
  const search = (
    node: Node<T>,
    segs: string[],
    i: number,
    verb: string,
    accept: (leaf: Leaf<T>) => boolean,
  ): Leaf<T> | undefined => {
    if (i === segs.length) {
      const leaf = node.ends.get(verb);
      if (leaf && accept(leaf)) return leaf;
    } else {
      const seg = segs[i]!;
      const lit = node.literals.get(seg) ?? (seg.includes("%") ? node.literals.get(safeDecode(seg)) : undefined);
      if (lit) {
        const found = search(lit, segs, i + 1, verb, accept);
        if (found) return found;
      }
      if (node.wildcard && seg !== "") {
        const found = search(node.wildcard, segs, i + 1, verb, accept);
        if (found) return found;
      }
    }
    if (node.deep) {
      const leaf = node.deep.ends.get(verb);
      if (leaf && accept(leaf)) return leaf;
    }
    return undefined;
  };

  // The verb candidates of a path: split at the last ":" of the last segment when a rule uses that verb.
  const candidates = (path: string): Array<[string[], string]> => {
    if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
    const segs = path.slice(1).split("/");
    const out: Array<[string[], string]> = [];
    const last = segs[segs.length - 1]!;
    const colon = last.lastIndexOf(":");
    if (colon >= 0 && verbs.has(last.slice(colon + 1))) {
      const trimmed = segs.slice();
      trimmed[trimmed.length - 1] = last.slice(0, colon);
      out.push([trimmed, last.slice(colon + 1)]);
    }
    out.push([segs, ""]);
    return out;
  };

  return {
    match(httpMethod, path) {
      const method = httpMethod.toUpperCase();
      const tries = candidates(path);
      for (const [segs, verb] of tries) {
        const leaf = search(root, segs, 0, verb, (l) => l.byMethod.has(method));
        if (leaf) {
          const entry = leaf.byMethod.get(method)!;
          return { value: entry.value, template: entry.template, variables: extract(entry.template, segs) };
        }
      }
      // Slow path, only for errors: which methods would the path accept?
      const allow = new Set<string>();
      for (const [segs, verb] of tries) {
        search(root, segs, 0, verb, (l) => {
          for (const m of l.byMethod.keys()) allow.add(m);
          return false;
        });
      }
      if (allow.size > 0) {
        const list = [...allow].sort();
        throw new MatchError(405, `Cannot ${method} ${path}`, list);
      }
      // The wording of NestJS, which the specification's services answered with.
      throw new MatchError(404, `Cannot ${method} ${path}`);
    },
  };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// Single-segment values are fully decoded; in multi-segment values (`**`, `a/*`) an encoded "/" stays
// encoded so that it cannot be confused with a separator (grpc-gateway's UnescapingModeAllExceptReserved).
function extract(template: PathTemplate, segs: string[]): string[] {
  const out: string[] = [];
  for (const v of template.variables) {
    const isDeep = template.segments[v.end - 1]?.kind === "deep";
    const parts = segs.slice(v.start, isDeep ? segs.length : v.end);
    try {
      out.push(
        parts.length === 1
          ? decodeURIComponent(parts[0]!)
          : parts.map((p) => decodeURIComponent(p.replace(/%2F/gi, "%252F"))).join("/"),
      );
    } catch {
      throw new MatchError(400, `malformed percent-encoding in path variable "${v.fieldPath.join(".")}"`);
    }
  }
  return out;
}
