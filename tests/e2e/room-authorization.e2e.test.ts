// The authorization matrix of the room service (issue 11): every RPC of every tt.room.v1 service (the people part
// included), called by every kind of caller, is refused by the access layer (401 with one of its messages) exactly when its tt.options.v1.access option does not allow
// that caller. Calls go through the gateway's Connect passthrough with an empty request, which runs the same
// interceptors as REST; an allowed call may still fail in the handler (400, 404, 412 ...), never with the
// access layer's 401.
import { getOption } from "@bufbuild/protobuf";
import { access, TokenType, type Access } from "@tt/proto/tt/options/v1/access_pb";
import { serviceCatalog } from "@tt/gateway/catalog";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, type TestPlatform } from "./support/platform.ts";

/** Every RPC of every tt.room.v1 service. */
const ROOM_METHODS = serviceCatalog.room.flatMap((service) => service.methods);

interface Caller {
  name: string;
  /** The token's typ and role; undefined: no token. */
  typ?: "user" | "guest" | "bot" | "service";
  role?: string;
  /** The real account user and bot tokens are for. */
  sub?: string;
}

const CALLERS: Caller[] = [
  { name: "no token" },
  { name: "guest", typ: "guest", role: "guest" },
  { name: "user", typ: "user", role: "user" },
  { name: "bot", typ: "bot", role: "bot" },
  { name: "service", typ: "service", role: "service" },
  { name: "admin", typ: "user", role: "admin" },
  { name: "moderator", typ: "user", role: "moderator" },
  { name: "staff", typ: "user", role: "staff" },
  { name: "globalModerator", typ: "user", role: "globalModerator" },
  { name: "superUser", typ: "user", role: "superUser" },
];

const TYPE_NAMES: Partial<Record<TokenType, Caller["typ"]>> = {
  [TokenType.USER]: "user",
  [TokenType.GUEST]: "guest",
  [TokenType.BOT]: "bot",
  [TokenType.SERVICE]: "service",
};

/** What the kit's access interceptor says when it refuses (services/kit/src/interceptors/access.ts). */
const ACCESS_REFUSALS = [
  /^missing access token$/,
  /^(user|guest|bot|service) tokens may not call this method$/,
  /^role \S+ may not call this method$/,
  /^this method is not open to any caller$/,
];

/** The verifier's refusals: a token this test crafted must never meet them. */
const TOKEN_REFUSALS = /^(access token expired|session revoked|invalid access token)$/;

/** The option's own reading, independent of the kit's code: who it lets in. */
function allows(rule: Access, caller: Caller): boolean {
  if (rule.anonymous) return true;
  if (caller.typ === undefined) return false;
  if (!rule.tokenTypes.some((type) => TYPE_NAMES[type] === caller.typ)) return false;
  const rolesApply = caller.typ === "user" || caller.typ === "bot";
  return !rolesApply || rule.roles.length === 0 || rule.roles.includes(caller.role!) || caller.role === "superUser";
}

let platform: TestPlatform;

beforeAll(async () => {
  platform = await sharedPlatform();
  for (const caller of CALLERS) {
    if (caller.typ === "user" || caller.typ === "bot") {
      // A real account per caller, so handlers that look the caller up find it, and one caller's side
      // effects (a deactivation request, say) never reach another's.
      caller.sub = (await platform.signUp()).user.uuid;
    }
  }
});

/** A fresh token (its own session) per call: Logout and the like revoke the session they are called with. */
function tokenOf(caller: Caller): Promise<string> | undefined {
  if (caller.typ === undefined) return undefined;
  if (caller.typ === "service") return platform.serviceToken("authorization-matrix");
  return platform.craft({
    typ: caller.typ,
    role: caller.role,
    ...(caller.sub === undefined ? {} : { sub: caller.sub }),
  });
}

describe("room service authorization matrix", () => {
  it("every method declares an access option", () => {
    const missing = ROOM_METHODS.filter((method) => getOption(method, access) === undefined);
    expect(missing.map((method) => method.name)).toEqual([]);
  });

  it("refuses exactly the callers the access option does not allow", async () => {
    const cases = ROOM_METHODS.flatMap((method) => CALLERS.map((caller) => ({ method, caller })));
    const rows: string[] = [];
    const failures: string[] = [];
    // A few calls at a time: fast, without flooding the database pool of the platform.
    for (let i = 0; i < cases.length; i += 16) {
      await Promise.all(
        cases.slice(i, i + 16).map(async ({ method, caller }) => {
          const rule = getOption(method, access);
          const expected = allows(rule, caller) ? "allowed" : "refused";
          const token = await tokenOf(caller);
          const res = await platform.call("POST", `/${method.parent.typeName}/${method.name}`, {
            body: {},
            ...(token === undefined ? {} : { token }),
          });
          const message = typeof res.body.message === "string" ? res.body.message : "";
          const refusedByAccess = res.status === 401 && ACCESS_REFUSALS.some((pattern) => pattern.test(message));
          const actual = refusedByAccess ? "refused" : "allowed";
          const row = `${method.name.padEnd(34)} ${caller.name.padEnd(16)} expected ${expected.padEnd(8)} got ${res.status} ${message}`;
          rows.push(row);
          // A refusal must be the access layer's 401; an allowed call must never be one.
          if (expected !== actual || (res.status === 401 && TOKEN_REFUSALS.test(message))) failures.push(row);
          // An empty request is bad input or a missing resource, never a server fault.
          if (res.status >= 500) failures.push(row);
        }),
      );
    }
    expect(rows).toHaveLength(ROOM_METHODS.length * CALLERS.length);
    expect(
      failures,
      `\nmethod                             caller           outcome\n${failures.sort().join("\n")}\n`,
    ).toEqual([]);
  });
});
