// Subject rules shared by both adapters, so the in-process bus refuses exactly what NATS would refuse and
// matches exactly what NATS would match (`*` one token, `>` one or more trailing tokens).

/** Thrown for a subject (or pattern) that NATS would not accept. */
export class InvalidSubjectError extends Error {
  constructor(
    readonly subject: string,
    reason: string,
  ) {
    super(`invalid subject ${JSON.stringify(subject)}: ${reason}`);
    this.name = "InvalidSubjectError";
  }
}

const forbidden = /[\s\0]/;

/**
 * Checks a subject or, with `wildcards`, a subscription pattern. Returns the tokens.
 * Empty tokens (`a..b`, leading or trailing dots) and whitespace are refused; `>` only as the last token.
 */
export function validateSubject(subject: string, opts: { wildcards?: boolean } = {}): string[] {
  if (subject.length === 0) throw new InvalidSubjectError(subject, "empty");
  if (forbidden.test(subject)) throw new InvalidSubjectError(subject, "contains whitespace");
  const tokens = subject.split(".");
  tokens.forEach((token, i) => {
    if (token.length === 0) throw new InvalidSubjectError(subject, `empty token at position ${i + 1}`);
    const wildcard = token === "*" || token === ">";
    if (wildcard && !opts.wildcards) throw new InvalidSubjectError(subject, "wildcards are not allowed here");
    if (token === ">" && i !== tokens.length - 1) {
      throw new InvalidSubjectError(subject, "`>` must be the last token");
    }
  });
  return tokens;
}

/** True when `subject` (no wildcards) is matched by `pattern` (wildcards allowed). */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split(".");
  const s = subject.split(".");
  for (let i = 0; i < p.length; i++) {
    const token = p[i];
    if (token === ">") return s.length > i;
    if (i >= s.length) return false;
    if (token !== "*" && token !== s[i]) return false;
  }
  return p.length === s.length;
}

/** True when some subject could match both patterns (two streams may not claim the same subject). */
export function subjectsOverlap(a: string, b: string): boolean {
  const x = a.split(".");
  const y = b.split(".");
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const l = x[i];
    const r = y[i];
    if (l === ">" || r === ">") return l !== undefined && r !== undefined;
    if (l === undefined || r === undefined) return false;
    if (l !== "*" && r !== "*" && l !== r) return false;
  }
  return true;
}

const namePart = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * Builds a platform event subject `tt.<service>.<entity>.<verb>` (ARCHITECTURE.md "Data and events").
 * Parts are lower-case names, so they can never smuggle in dots or wildcards.
 */
export function subject(service: string, entity: string, verb: string): string {
  for (const [what, part] of [
    ["service", service],
    ["entity", entity],
    ["verb", verb],
  ] as const) {
    if (!namePart.test(part)) {
      throw new InvalidSubjectError(
        `tt.${service}.${entity}.${verb}`,
        `${what} ${JSON.stringify(part)} must match ${namePart.source}`,
      );
    }
  }
  return `tt.${service}.${entity}.${verb}`;
}
