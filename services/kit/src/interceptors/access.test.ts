import { create, createFileRegistry, setExtension } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, MethodOptionsSchema } from "@bufbuild/protobuf/wkt";
import { access, AccessSchema, TokenType } from "@tt/proto/tt/options/v1/access_pb";
import { EchoService } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { ProviderTokenService } from "@tt/proto/tt/user/v1/provider_token_service_pb";
import { describe, expect, it } from "vitest";
import { accessRuleOf, assertAccessOptions, bearerToken } from "./access.ts";

/** A service built at run time, so a test can declare access options no checked-in proto should have. */
function serviceWith(rules: Record<string, { roles?: string[]; tokenTypes?: TokenType[] } | undefined>) {
  const methods = Object.entries(rules).map(([name, rule]) => {
    const options = create(MethodOptionsSchema);
    if (rule) setExtension(options, access, create(AccessSchema, rule));
    return { name, inputType: ".tt.probe.v1.Empty", outputType: ".tt.probe.v1.Empty", options };
  });
  const file = create(FileDescriptorProtoSchema, {
    name: "tt/probe/v1/probe.proto",
    package: "tt.probe.v1",
    syntax: "proto3",
    messageType: [{ name: "Empty" }],
    service: [{ name: "ProbeService", method: methods }],
  });
  return createFileRegistry(file, () => undefined).getService("tt.probe.v1.ProbeService")!;
}

describe("assertAccessOptions", () => {
  it("accepts the platform's checked-in services", () => {
    expect(() =>
      assertAccessOptions([
        AuthService,
        AccountService,
        ContactService,
        ProfileService,
        ModerationService,
        ProviderTokenService,
        AdminService,
      ]),
    ).not.toThrow();
  });

  it("lists every method without the option", () => {
    expect(() => assertAccessOptions([EchoService])).toThrow(
      "invalid access options:\n  tt.testing.v1.EchoService.Unguarded has no (tt.options.v1.access) option",
    );
    expect(() => assertAccessOptions([EchoService], { requireOption: false })).not.toThrow();
  });

  it("refuses unknown roles and unspecified token types, even when missing options are tolerated", () => {
    const service = serviceWith({
      Typo: { tokenTypes: [TokenType.USER], roles: ["admn"] },
      Fine: { tokenTypes: [TokenType.USER], roles: ["admin", "superUser"] },
      Unspecified: { tokenTypes: [TokenType.UNSPECIFIED] },
      Missing: undefined,
    });
    expect(() => assertAccessOptions([service], { requireOption: false })).toThrow(
      [
        "invalid access options:",
        '  tt.probe.v1.ProbeService.Typo names unknown role "admn" (known: globalModerator, admin, moderator, staff, promoter, user, superUser, bot)',
        "  tt.probe.v1.ProbeService.Unspecified lists token type 0, which is not a token type",
      ].join("\n"),
    );
  });

  it("reads the option of a method", () => {
    expect(accessRuleOf(EchoService.method.adminEcho)).toMatchObject({
      roles: ["admin"],
      tokenTypes: [TokenType.USER],
    });
    expect(accessRuleOf(EchoService.method.unguarded)).toBeUndefined();
  });
});

describe("bearerToken", () => {
  it("takes the token of a Bearer header, case-insensitively", () => {
    expect(bearerToken(new Headers())).toBeUndefined();
    expect(bearerToken(new Headers({ authorization: "Bearer abc.def.ghi" }))).toBe("abc.def.ghi");
    expect(bearerToken(new Headers({ authorization: "bearer abc" }))).toBe("abc");
  });

  it.each(["Basic abc", "Bearer", "Bearer a b", "Token abc"])("refuses %j with 401", (value) => {
    expect(() => bearerToken(new Headers({ authorization: value }))).toThrow(/invalid authorization header/);
  });
});
