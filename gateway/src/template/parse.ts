// The google.api.http path template grammar (google/api/http.proto), as grpc-gateway's internal/httprule
// reads it:
//
//   Template = "/" Segments [ Verb ] ;
//   Segments = Segment { "/" Segment } ;
//   Segment  = "*" | "**" | LITERAL | Variable ;
//   Variable = "{" FieldPath [ "=" Segments ] "}" ;
//   FieldPath = IDENT { "." IDENT } ;
//   Verb     = ":" LITERAL ;
//
// Templates are parsed once at start; a malformed one stops the gateway with the method's name.

/** A template that does not follow the grammar. */
export class TemplateParseError extends Error {
  override name = "TemplateParseError";
  constructor(
    readonly template: string,
    readonly reason: string,
    /** The RPC the rule belongs to, when known. */
    readonly method?: string,
  ) {
    super(`${method ? `${method}: ` : ""}invalid path template "${template}": ${reason}`);
  }
}

export type TemplateSegment =
  | { kind: "literal"; value: string }
  /** `*`: exactly one segment. */
  | { kind: "wildcard" }
  /** `**`: zero or more segments; only last. */
  | { kind: "deep" };

export interface TemplateVariable {
  /** The field path, `["thing", "id"]` for `{thing.id}`. */
  fieldPath: string[];
  /** Index of the first segment the variable covers. */
  start: number;
  /** Index after the last segment it covers. */
  end: number;
  /** Whether the source spelled out `=…`; kept so that printing gives back the source. */
  explicit: boolean;
}

export interface PathTemplate {
  segments: TemplateSegment[];
  variables: TemplateVariable[];
  verb: string | undefined;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
// RFC 3986 pchar minus the characters the grammar reserves ("/", "{", "}", "=", "*", ":").
const LITERAL = /^(?:[A-Za-z0-9\-._~!$&'()+,;@]|%[0-9A-Fa-f]{2})+$/;

/** Parses a path template; throws `TemplateParseError`. */
export function parseTemplate(template: string, method?: string): PathTemplate {
  const fail = (reason: string): never => {
    throw new TemplateParseError(template, reason, method);
  };
  if (!template.startsWith("/")) fail("must start with /");

  let body = template.slice(1);
  let verb: string | undefined;
  // The verb is the part after the last ":" that is outside every variable.
  let depth = 0;
  let colon = -1;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === ":" && depth === 0) colon = i;
  }
  if (colon >= 0) {
    verb = body.slice(colon + 1);
    body = body.slice(0, colon);
    if (!LITERAL.test(verb)) fail(`invalid verb "${verb}"`);
  }
  if (body === "") fail("needs at least one segment");

  const segments: TemplateSegment[] = [];
  const variables: TemplateVariable[] = [];
  let pos = 0;

  const readSegments = (inVariable: boolean): void => {
    for (;;) {
      if (body[pos] === "{") {
        if (inVariable) fail("variables cannot be nested");
        readVariable();
      } else {
        let end = pos;
        while (end < body.length && body[end] !== "/" && body[end] !== "}" && body[end] !== "{") end++;
        const text = body.slice(pos, end);
        pos = end;
        if (text === "*") segments.push({ kind: "wildcard" });
        else if (text === "**") segments.push({ kind: "deep" });
        else if (text === "") fail("empty segment");
        else if (LITERAL.test(text)) segments.push({ kind: "literal", value: text });
        else fail(`invalid segment "${text}"`);
      }
      if (body[pos] !== "/") return;
      pos++;
    }
  };

  const readVariable = (): void => {
    pos++; // "{"
    let end = pos;
    while (end < body.length && body[end] !== "=" && body[end] !== "}") end++;
    const path = body.slice(pos, end);
    const fieldPath = path.split(".");
    if (!fieldPath.every((p) => IDENT.test(p))) fail(`invalid field path "${path}"`);
    pos = end;
    const start = segments.length;
    let explicit = false;
    if (body[pos] === "=") {
      pos++;
      explicit = true;
      readSegments(true);
    } else {
      segments.push({ kind: "wildcard" });
    }
    if (body[pos] !== "}") fail(`unclosed variable "${path}"`);
    pos++;
    if (variables.some((v) => v.fieldPath.join(".") === path)) fail(`variable "${path}" appears twice`);
    variables.push({ fieldPath, start, end: segments.length, explicit });
  };

  readSegments(false);
  if (pos !== body.length) fail(`unexpected "${body.slice(pos)}"`);
  const deep = segments.findIndex((s) => s.kind === "deep");
  if (deep >= 0 && deep !== segments.length - 1) fail("** must be the last segment");
  return { segments, variables, verb };
}

/** Prints a parsed template back in its source form. */
export function formatTemplate(t: PathTemplate): string {
  const seg = (s: TemplateSegment) => (s.kind === "literal" ? s.value : s.kind === "wildcard" ? "*" : "**");
  const parts: string[] = [];
  for (let i = 0; i < t.segments.length;) {
    const v = t.variables.find((x) => x.start === i);
    if (v) {
      const inner = t.segments.slice(v.start, v.end).map(seg).join("/");
      parts.push(`{${v.fieldPath.join(".")}${v.explicit ? `=${inner}` : ""}}`);
      i = v.end;
    } else {
      parts.push(seg(t.segments[i]!));
      i++;
    }
  }
  return `/${parts.join("/")}${t.verb === undefined ? "" : `:${t.verb}`}`;
}
