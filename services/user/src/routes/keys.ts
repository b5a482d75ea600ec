// The public keys that verify access tokens.
import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import type { JSONWebKeySet } from "jose";
import { TOKEN_ALG } from "@tt/kit";
import type { UserServiceContext } from "../user-context.ts";

function toJwksMessage(set: JSONWebKeySet) {
  return {
    keys: set.keys.map((k) => ({
      kty: k.kty ?? "",
      crv: k.crv ?? "",
      x: k.x ?? "",
      kid: k.kid ?? "",
      alg: k.alg ?? "",
      use: k.use ?? "",
    })),
  };
}

export function keyRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof AuthService>> {
  return {
    async getPubKey() {
      const current = svc.tokens.currentKey();
      return {
        publicKey: current.publicKeyPem,
        alg: TOKEN_ALG,
        kid: current.kid,
        jwks: toJwksMessage(await svc.tokens.verificationKeys()),
      };
    },
    async getJwks() {
      return toJwksMessage(await svc.tokens.verificationKeys());
    },
  };
}
