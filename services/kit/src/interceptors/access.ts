// Enforces the `tt.options.v1.access` option of each method. Deny by default: a method without the option
// cannot be called at all. The specification has the server answer 401 whenever it refuses, so every
// refusal here is Unauthenticated; ownership checks (403) belong to the services, next to their data.
import { getOption, hasOption, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { errors } from "jose";
import { access as accessOption, TokenType, type Access } from "@tt/proto/tt/options/v1/access_pb";
import { USER_ROLES } from "../auth/claims.ts";
import type { TokenVerifier } from "../auth/verifier.ts";
import { kIdentity, type Identity, type TokenType as TokenTypeName } from "../context.ts";

/** An access rule as the interceptor applies it, resolved once per method. */
interface Rule {
  anonymous: boolean;
  tokenTypes: ReadonlySet<TokenTypeName>;
  roles: ReadonlySet<string>;
}

const tokenTypeNames: Partial<Record<TokenType, TokenTypeName>> = {
  [TokenType.USER]: "user",
  [TokenType.GUEST]: "guest",
  [TokenType.BOT]: "bot",
  [TokenType.SERVICE]: "service",
};

const knownRoles: ReadonlySet<string> = new Set(USER_ROLES);

/** The method's access option, or undefined when it has none. */
export function accessRuleOf(method: DescMethod): Access | undefined {
  return hasOption(method, accessOption) ? getOption(method, accessOption) : undefined;
}

/** Problems of one method's access option: missing, unknown role, unspecified token type. */
function problemsOf(method: DescMethod, requireOption: boolean): string[] {
  const name = `${method.parent.typeName}.${method.name}`;
  const access = accessRuleOf(method);
  if (!access) return requireOption ? [`${name} has no (tt.options.v1.access) option`] : [];
  const problems: string[] = [];
  for (const role of access.roles) {
    if (!knownRoles.has(role)) problems.push(`${name} names unknown role "${role}" (known: ${USER_ROLES.join(", ")})`);
  }
  if (access.precheck !== "") {
    const check = method.parent.methods.find((m) => m.name === access.precheck);
    if (!check || check.methodKind !== "unary") {
      problems.push(`${name} names precheck "${access.precheck}", which is not a unary method of its service`);
    }
  }
  for (const type of access.tokenTypes) {
    if (tokenTypeNames[type] === undefined)
      problems.push(`${name} lists token type ${type}, which is not a token type`);
  }
  return problems;
}

export interface AccessOptionsCheck {
  /** When false, methods without the option are tolerated here (they are still refused at call time). */
  requireOption?: boolean;
}

/**
 * Fails fast, listing every problem, when a method lacks its access option or names a role that does not
 * exist. A typo in a role would otherwise silently lock everyone but superUser out.
 */
export function assertAccessOptions(services: readonly DescService[], check: AccessOptionsCheck = {}): void {
  const problems = services.flatMap((s) => s.methods.flatMap((m) => problemsOf(m, check.requireOption ?? true)));
  if (problems.length > 0) throw new Error(`invalid access options:\n  ${problems.join("\n  ")}`);
}

const rules = new WeakMap<DescMethod, Rule | null>();

function ruleOf(method: DescMethod): Rule | null {
  let rule = rules.get(method);
  if (rule === undefined) {
    const access = accessRuleOf(method);
    rule = access
      ? {
          anonymous: access.anonymous,
          tokenTypes: new Set(access.tokenTypes.flatMap((t) => tokenTypeNames[t] ?? [])),
          roles: new Set(access.roles),
        }
      : null;
    rules.set(method, rule);
  }
  return rule;
}

function refuse(message: string, cause?: unknown): ConnectError {
  return new ConnectError(message, Code.Unauthenticated, undefined, undefined, cause);
}

/** The compact token of `Authorization: Bearer <jwt>`; undefined without the header. */
export function bearerToken(header: Headers): string | undefined {
  const value = header.get("authorization");
  if (value === null) return undefined;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(value);
  if (!match?.[1]) throw refuse("invalid authorization header: expected Bearer <token>");
  return match[1];
}

/** Whether `identity` may call a method with `rule`; throws the refusal otherwise. */
function authorize(rule: Rule, identity: Identity | undefined): void {
  if (identity === undefined) {
    if (rule.anonymous) return;
    throw refuse("missing access token");
  }
  // A valid token never makes an anonymous method unreachable.
  if (rule.anonymous) return;
  if (!rule.tokenTypes.has(identity.tokenType)) throw refuse(`${identity.tokenType} tokens may not call this method`);
  const rolesApply = identity.tokenType === "user" || identity.tokenType === "bot";
  if (rolesApply && rule.roles.size > 0 && !rule.roles.has(identity.role) && identity.role !== "superUser") {
    throw refuse(`role ${identity.role} may not call this method`);
  }
}

export interface AccessInterceptorOptions {
  verifier: TokenVerifier;
}

/**
 * The access decision for one call, from its method and its request headers alone: the caller, or the
 * Unauthenticated refusal. It needs neither the request body nor its decoded message, so the kit's request gate
 * and the gateway make it before they read or decode a body (issue 23 findings 6 and 8), and the interceptor
 * makes it again for every transport (the verifier remembers the token, so the second time is a map lookup).
 */
export async function authorizeCall(
  method: DescMethod,
  header: Headers,
  verifier: TokenVerifier,
): Promise<Identity | undefined> {
  const rule = ruleOf(method);
  if (rule === null) throw refuse("this method is not open to any caller");
  const token = bearerToken(header);
  // A token sent to an anonymous method must still be valid: a caller must never be silently downgraded.
  const identity = token === undefined ? undefined : await verifier.verify(token);
  authorize(rule, identity);
  return identity;
}

export function createAccessInterceptor(opts: AccessInterceptorOptions): Interceptor {
  return (next) => async (req) => {
    req.contextValues.set(kIdentity, await authorizeCall(req.method, req.header, opts.verifier));
    return next(req);
  };
}

export interface EdgeAccessCheckOptions {
  verifier: TokenVerifier;
  /**
   * The process cannot verify every token the services accept (the distributed gateway holds the user service's
   * keys, not the services' own identity key): a token signed with a key it does not know, or one it cannot check
   * because the keys are unavailable, is left for the service to decide instead of being refused here.
   */
  deferUnknownKeys?: boolean;
}

/**
 * The access decision of a process in front of the services (the gateway), made from the method and the headers
 * before it reads a body or decodes input (issue 23 findings 6 and 8): throws the service's own refusal.
 */
export function createEdgeAccessCheck(
  opts: EdgeAccessCheckOptions,
): (method: DescMethod, header: Headers) => Promise<void> {
  return async (method, header) => {
    try {
      await authorizeCall(method, header, opts.verifier);
    } catch (err) {
      if (opts.deferUnknownKeys && err instanceof ConnectError) {
        if (err.code === Code.Unavailable) return;
        if (err.code === Code.Unauthenticated && err.cause instanceof errors.JWKSNoMatchingKey) return;
      }
      throw err;
    }
  };
}
