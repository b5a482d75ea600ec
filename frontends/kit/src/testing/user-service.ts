import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { AccessTokenSchema, UserSchema, type User } from "@tt/proto/tt/user/v1/user_pb";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { VoucherSchema } from "@tt/proto/tt/user/v1/voucher_pb";
import { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";

interface Account {
  user: User;
  password: string;
  nickname: string;
  /** The name colour (#rrggbb) and bio, "" when none. */
  color: string;
  bio: string;
}

export interface TestUserService {
  routes: (router: ConnectRouter) => void;
  /** Adds an account directly, e.g. an admin. */
  addAccount(email: string, password: string, role?: string): User;
  /** Tokens the service has issued and not revoked, by token. */
  tokens: Map<string, { type: "user" | "guest"; uuid?: string }>;
  /** Every call, in order: "Login", "AdminListUsers"… */
  calls: string[];
  /** Profiles' avatarId (the current avatar) by user uuid. */
  avatars: Map<string, string>;
  /** Adds a PENDING voucher that grants `capabilities` and `badges` (codes compare case-insensitively). */
  addVoucher(code: string, grants: { capabilities?: string[]; badges?: string[] }): void;
  /** The capabilities an account holds now, by e-mail (vouchers add to them). */
  capabilitiesOf(email: string): string[];
  /** Every UpdateProfile request, as sent (only the fields present). */
  profileUpdates: Array<Record<string, string>>;
  /** A call ("UpdateProfile"…) answered with this error instead, e.g. a refusal the screens cannot foresee. */
  refuse: Map<string, ConnectError>;
}

/**
 * A small, honest user service for component tests: it keeps accounts and tokens in memory and answers
 * with the documented messages and codes, so screens are tested against the real protocol and shapes.
 */
export interface TestUserServiceOptions {
  /** Implements phone sign-in; the code texted is always this one. Without it the calls are Unimplemented. */
  phoneCode?: string;
}

export function createTestUserService({ phoneCode }: TestUserServiceOptions = {}): TestUserService {
  const accounts = new Map<string, Account>();
  const tokens = new Map<string, { type: "user" | "guest"; uuid?: string }>();
  const calls: string[] = [];
  const avatars = new Map<string, string>();
  const vouchers = new Map<string, { capabilities: string[]; badges: string[]; redeemed: boolean }>();
  const profileUpdates: Array<Record<string, string>> = [];
  const refuse = new Map<string, ConnectError>();
  let counter = 0;

  const issue = (type: "user" | "guest", uuid?: string) => {
    const token = `${type}-token-${++counter}`;
    tokens.set(token, { type, ...(uuid ? { uuid } : {}) });
    return create(AccessTokenSchema, {
      token,
      tokenType: type,
      expiresAt: timestampFromDate(new Date(Date.now() + 3_600_000)),
    });
  };

  const addAccount = (email: string, password: string, role = "user") => {
    const user = create(UserSchema, {
      uuid: `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`,
      email,
      role,
      createdAt: timestampFromDate(new Date("2026-01-0" + ((counter % 9) + 1) + "T00:00:00Z")),
    });
    accounts.set(email, { user, password, nickname: email.split("@")[0] ?? email, color: "", bio: "" });
    return user;
  };

  const accountOf = (uuid: string | undefined) =>
    [...accounts.values()].find((candidate) => candidate.user.uuid === uuid);
  const profileOf = (account: Account) => {
    const { uuid } = account.user;
    const { nickname, color, bio } = account;
    return { uuid, nickname, color, bio, avatarId: avatars.get(uuid) ?? "" };
  };
  const invalid = (message: string) => new ConnectError(message, Code.InvalidArgument);

  const caller = (ctx: HandlerContext) => {
    const token = ctx.requestHeader.get("authorization")?.replace(/^Bearer /, "");
    const found = token ? tokens.get(token) : undefined;
    if (!found) throw new ConnectError("invalid or expired token", Code.Unauthenticated);
    return { token: token ?? "", ...found };
  };

  const phone = phoneCode
    ? {
        sendMobileCode: ({ phoneNumber }: { phoneNumber: string }) => {
          calls.push("SendMobileCode");
          // Stands in for the real check: numbers starting +1555 are VoIP lines.
          if (phoneNumber.startsWith("+1555")) {
            throw new ConnectError("phone number is VOIP", Code.InvalidArgument);
          }
          return { phoneNumber };
        },
        verifyMobileCode: ({ phoneNumber, code }: { phoneNumber: string; code: string }) => {
          calls.push("VerifyMobileCode");
          if (code !== phoneCode) throw new ConnectError("invalid or expired code", Code.PermissionDenied);
          const email = `${phoneNumber.replace("+", "")}@phone.test`;
          const user = accounts.get(email)?.user ?? addAccount(email, "");
          return { user, accessToken: issue("user", user.uuid), created: true };
        },
      }
    : {};

  const routes = (router: ConnectRouter) =>
    router
      .service(ContactService, phone)
      .service(AuthService, {
        hello: () => ({ service: "user-service", version: "1.8.0" }),
        getGuestToken: () => {
          calls.push("GetGuestToken");
          return { accessToken: issue("guest") };
        },
        signUp: ({ email, password, nickname }) => {
          calls.push("SignUp");
          if (!email || !password) throw new ConnectError("email or password missing in request", Code.InvalidArgument);
          if (accounts.has(email)) throw new ConnectError("this email is already registered", Code.PermissionDenied);
          const user = addAccount(email, password);
          if (nickname) (accounts.get(email) as Account).nickname = nickname;
          return { user, accessToken: issue("user", user.uuid) };
        },
        login: ({ email, password }) => {
          calls.push("Login");
          const account = accounts.get(email);
          if (!account || account.password !== password) {
            throw new ConnectError("incorrect email or password", Code.Unauthenticated);
          }
          return { user: account.user, accessToken: issue("user", account.user.uuid) };
        },
        logout: (_req, ctx) => {
          calls.push("Logout");
          tokens.delete(caller(ctx).token);
          return {};
        },
        getSession: (_req, ctx) => {
          const who = caller(ctx);
          const account = [...accounts.values()].find((candidate) => candidate.user.uuid === who.uuid);
          return {
            tokenType: who.type,
            role: account?.user.role ?? "guest",
            sessionId: who.token,
            user: account?.user,
          };
        },
      })
      .service(ProfileService, {
        getProfile: ({ id }, ctx) => {
          calls.push("GetProfile");
          caller(ctx);
          const account = accountOf(id);
          if (!account) throw new ConnectError("user profile not found", Code.NotFound);
          return { profile: profileOf(account) };
        },
        getOwnProfile: (_req, ctx) => {
          calls.push("GetOwnProfile");
          const account = accountOf(caller(ctx).uuid);
          if (!account) throw new ConnectError("user profile not found", Code.NotFound);
          return { profile: profileOf(account) };
        },
        // The real service's rules and messages (services/user profile-rules.ts): every value is checked before
        // anything changes; the nickname is trimmed, 1 to 64 characters; "" clears the colour and the bio.
        updateProfile: (req, ctx) => {
          calls.push("UpdateProfile");
          const account = accountOf(caller(ctx).uuid);
          const sent: Record<string, string> = {};
          for (const field of ["nickname", "avatarId", "color", "bio"] as const) {
            const value = req[field];
            if (value !== undefined) sent[field] = value;
          }
          profileUpdates.push(sent);
          const refusal = refuse.get("UpdateProfile");
          if (refusal) throw refusal;
          if (!account) throw new ConnectError("user profile not found", Code.NotFound);
          const nickname = req.nickname?.trim();
          if (nickname !== undefined && ([...nickname].length < 1 || [...nickname].length > 64)) {
            throw invalid("nickname must be 1 to 64 characters long");
          }
          const color = req.color?.trim().toLowerCase();
          if (color && !/^#[0-9a-f]{6}$/.test(color)) throw invalid("color must be a hex colour like #1a2b3c");
          if (req.bio !== undefined && [...req.bio].length > 500)
            throw invalid("bio must be at most 500 characters long");
          if (nickname !== undefined) account.nickname = nickname;
          if (color !== undefined) account.color = color;
          if (req.bio !== undefined) account.bio = req.bio;
          if (req.avatarId !== undefined) avatars.set(account.user.uuid, req.avatarId);
          return { profile: profileOf(account) };
        },
        getProfiles: ({ users }, ctx) => {
          calls.push("GetProfiles");
          caller(ctx);
          // Unknown uuids are left out; the answer keeps the order of the question.
          const profiles = users.flatMap((id) => {
            const account = accountOf(id);
            return account ? [profileOf(account)] : [];
          });
          return { profiles };
        },
      })
      .service(AccountService, {
        adminGetUser: ({ id }, ctx) => {
          calls.push("AdminGetUser");
          const who = caller(ctx);
          const me = [...accounts.values()].find((candidate) => candidate.user.uuid === who.uuid);
          if (who.type !== "user" || me?.user.role !== "admin") {
            throw new ConnectError("Forbidden resource", Code.PermissionDenied);
          }
          const account = [...accounts.values()].find((candidate) => candidate.user.uuid === id);
          if (!account) throw new ConnectError("user not found", Code.NotFound);
          // A copy with the profile (the list's user is a message already: create would hand it back as it is).
          const { uuid, email, role, capabilities, badges, createdAt } = account.user;
          const profile = { uuid, nickname: account.nickname, avatarId: avatars.get(uuid) ?? "" };
          return { user: create(UserSchema, { uuid, email, role, capabilities, badges, createdAt, profile }) };
        },
        // The real service's messages and codes (services/user voucher-rules.ts).
        redeemVoucher: ({ code }, ctx) => {
          calls.push("RedeemVoucher");
          const who = caller(ctx);
          if (who.type !== "user") throw new ConnectError("Forbidden resource", Code.PermissionDenied);
          if (code.trim() === "") throw new ConnectError("voucher code missing in request", Code.InvalidArgument);
          const normalized = code.trim().toUpperCase();
          const voucher = vouchers.get(normalized);
          if (!voucher) throw new ConnectError("voucher not found", Code.NotFound);
          if (voucher.redeemed) throw new ConnectError("voucher can not be redeemed", Code.PermissionDenied);
          voucher.redeemed = true;
          const account = [...accounts.values()].find((candidate) => candidate.user.uuid === who.uuid);
          if (account) {
            account.user.capabilities = [...new Set([...account.user.capabilities, ...voucher.capabilities])];
            account.user.badges = [...new Set([...account.user.badges, ...voucher.badges])];
          }
          return {
            voucher: create(VoucherSchema, {
              id: `voucher-${normalized}`,
              code: normalized,
              status: "REDEEMED",
              capabilities: voucher.capabilities,
              badges: voucher.badges,
              redeemedByUuid: who.uuid ?? "",
            }),
          };
        },
      })
      .service(AdminService, {
        adminListUsers: ({ query }, ctx) => {
          calls.push("AdminListUsers");
          const who = caller(ctx);
          const account = [...accounts.values()].find((candidate) => candidate.user.uuid === who.uuid);
          if (who.type !== "user" || account?.user.role !== "admin") {
            throw new ConnectError("Forbidden resource", Code.PermissionDenied);
          }
          // The e-mail and nickname filters the console sends ("email||$contL||ada"), as the real list answers them.
          const wanted = (query?.filter ?? []).map((filter) => filter.split("||"));
          const all = [...accounts.values()]
            .filter((candidate) =>
              wanted.every(([field, op, value = ""]) => {
                const text = field === "email" ? candidate.user.email : field === "nickname" ? candidate.nickname : "";
                return op === "$contL" ? text.toLowerCase().includes(value.toLowerCase()) : true;
              }),
            )
            .map((candidate) => candidate.user);
          const size = query?.limit || 10;
          const current = query?.page || 1;
          const data = all.slice((current - 1) * size, current * size);
          return {
            data,
            count: data.length,
            total: all.length,
            page: current,
            pageCount: Math.ceil(all.length / size),
          };
        },
      });

  const addVoucher = (code: string, grants: { capabilities?: string[]; badges?: string[] }) =>
    void vouchers.set(code.trim().toUpperCase(), {
      capabilities: grants.capabilities ?? [],
      badges: grants.badges ?? [],
      redeemed: false,
    });
  const capabilitiesOf = (email: string) => [...(accounts.get(email)?.user.capabilities ?? [])];

  return { routes, addAccount, tokens, calls, avatars, addVoucher, capabilitiesOf, profileUpdates, refuse };
}
