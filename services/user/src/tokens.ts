// Signing access tokens. The user service is the only signer; every service verifies with the public keys
// published here (GetPubKey / GetJwks, or `verificationKeys()` for hosts in the same process).
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import type { EntityManager } from "@mikro-orm/postgresql";
import { calculateJwkThumbprint, SignJWT, type JSONWebKeySet, type JWK } from "jose";
import { advisoryXactLock, ConfigError, TOKEN_ALG, type AccessTokenClaims, type TokenType } from "@tt/kit";
import type { UserConfig } from "./config.ts";
import { createTokenCipher, type TokenCipher } from "./modules/provider-tokens/token-cipher.ts";
import { SigningKey } from "./modules/signing-keys/signing-key.entity.ts";

/** Serializes key creation across instances that start at the same moment against one database. */
const SIGNING_KEY_LOCK = "tt.user.signing-key";

/**
 * Private keys at rest. With SIGNING_KEY_ENCRYPTION_KEY a stored key is sealed with AES-256-GCM (the provider
 * tokens' cipher), its kid as additional data so a sealed key copied into another row does not open. Sealed
 * values start with the cipher's version ("v1."), plain ones with "-----BEGIN", so both can coexist while a
 * deployment moves to encryption.
 */
const SEALED_PREFIX = "v1.";
const ENCRYPTION_KEY_VARIABLE = "SIGNING_KEY_ENCRYPTION_KEY";

/** What goes into a token besides the issuer, audience and times. */
export interface TokenSubject {
  sub: string;
  typ: TokenType;
  role: string;
  sid: string;
}

export interface IssuedToken {
  token: string;
  tokenType: TokenType;
  expiresAt: Date;
}

/** The key that signs new tokens, in the forms the RPCs publish. */
export interface CurrentSigningKey {
  kid: string;
  /** SPKI PEM of the public key. */
  publicKeyPem: string;
  jwk: JWK;
}

export interface TokenIssuer {
  /** When a token of this type issued now expires (whole seconds, as `exp` carries it). */
  expiresAtFor(typ: TokenType, now?: Date): Date;
  /** Signs a token that expires at `expiresAt` (default: the lifetime of its type). */
  issue(subject: TokenSubject, expiresAt?: Date): Promise<IssuedToken>;
  currentKey(): CurrentSigningKey;
  /** Every key that may still verify a live token: the current one and all stored keys not retired. */
  verificationKeys(): Promise<JSONWebKeySet>;
}

interface LoadedKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  jwk: JWK;
}

async function loadKey(privateKey: KeyObject): Promise<LoadedKey> {
  if (privateKey.asymmetricKeyType !== "ed25519") {
    throw new Error(`signing key must be Ed25519, got ${privateKey.asymmetricKeyType ?? "a symmetric key"}`);
  }
  const publicKey = createPublicKey(privateKey);
  const exported = publicKey.export({ format: "jwk" });
  const bare: JWK = { kty: exported.kty, crv: exported.crv, x: exported.x };
  const kid = await calculateJwkThumbprint(bare);
  return { kid, privateKey, publicKey, jwk: publicJwk(bare, kid) };
}

function publicJwk(bare: JWK, kid: string): JWK {
  return { kty: bare.kty, crv: bare.crv, x: bare.x, kid, alg: TOKEN_ALG, use: "sig" };
}

function encryptionKeyError(reason: string): ConfigError {
  return new ConfigError([{ variable: ENCRYPTION_KEY_VARIABLE, reason }]);
}

/** The PEM of a stored key; a ConfigError naming the variable when it is sealed and cannot be opened. */
function openStored(row: SigningKey, cipher: TokenCipher | undefined): string {
  if (!row.privateKeyPem.startsWith(SEALED_PREFIX)) return row.privateKeyPem;
  if (!cipher) throw encryptionKeyError(`is required: signing key ${row.kid} is stored encrypted`);
  try {
    return cipher.decrypt(row.privateKeyPem, row.kid);
  } catch {
    throw encryptionKeyError(`does not decrypt signing key ${row.kid}: it was encrypted with another key`);
  }
}

/**
 * With a cipher: checks that every sealed key opens with it (a wrong key fails the start, before anything is
 * written with it) and seals every plain one in place, in the caller's transaction.
 */
async function sealStored(tem: EntityManager, cipher: TokenCipher): Promise<void> {
  for (const row of await tem.find(SigningKey, {})) {
    const pem = openStored(row, cipher);
    if (pem === row.privateKeyPem) row.privateKeyPem = cipher.encrypt(pem, row.kid);
  }
}

/**
 * The stored key that signs, creating one on first start. The newest key that is not retired wins, so
 * rotating is: insert a new key (or retire the current one) and restart.
 */
async function storedKey(em: EntityManager, cipher: TokenCipher | undefined): Promise<LoadedKey> {
  return em.fork().transactional(async (tem) => {
    await advisoryXactLock(tem, SIGNING_KEY_LOCK);
    if (cipher) await sealStored(tem, cipher);
    const existing = await tem.findOne(SigningKey, { retiredAt: null }, { orderBy: { createdAt: "desc" } });
    if (existing) return loadKey(createPrivateKey(openStored(existing, cipher)));
    const { privateKey } = generateKeyPairSync("ed25519");
    const key = await loadKey(privateKey);
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    tem.create(SigningKey, {
      kid: key.kid,
      privateKeyPem: cipher ? cipher.encrypt(pem, key.kid) : pem,
      publicJwk: key.jwk as Record<string, string>,
      retiredAt: null,
    });
    return key;
  });
}

/** Seals the stored keys (earlier generated ones) when JWT_PRIVATE_KEY signs and none is created here. */
async function sealStoredOnly(em: EntityManager, cipher: TokenCipher): Promise<void> {
  await em.fork().transactional(async (tem) => {
    await advisoryXactLock(tem, SIGNING_KEY_LOCK);
    await sealStored(tem, cipher);
  });
}

/**
 * Loads (or creates) the signing key. With JWT_PRIVATE_KEY the key comes from the environment and is never
 * written to the database. With SIGNING_KEY_ENCRYPTION_KEY stored keys are sealed (plain ones from before,
 * in place); without it they are kept in plain text and a sealed one fails the start.
 */
export async function createTokenIssuer(em: EntityManager, config: UserConfig): Promise<TokenIssuer> {
  const cipher = config.SIGNING_KEY_ENCRYPTION_KEY ? createTokenCipher(config.SIGNING_KEY_ENCRYPTION_KEY) : undefined;
  if (config.JWT_PRIVATE_KEY && cipher) await sealStoredOnly(em, cipher);
  const key = config.JWT_PRIVATE_KEY
    ? await loadKey(createPrivateKey(config.JWT_PRIVATE_KEY.replace(/\\n/g, "\n")))
    : await storedKey(em, cipher);
  const lifetimes: Record<TokenType, number> = {
    user: config.USER_TOKEN_TTL_SECONDS,
    bot: config.BOT_TOKEN_TTL_SECONDS,
    guest: config.GUEST_TOKEN_TTL_SECONDS,
    // Service tokens are not issued by this slice; the shortest lifetime is the safe one if they ever are.
    service: config.GUEST_TOKEN_TTL_SECONDS,
  };
  const current: CurrentSigningKey = {
    kid: key.kid,
    publicKeyPem: key.publicKey.export({ type: "spki", format: "pem" }).toString(),
    jwk: key.jwk,
  };

  const expiresAtFor = (typ: TokenType, now = new Date()) =>
    new Date((Math.floor(now.getTime() / 1000) + lifetimes[typ]) * 1000);

  return {
    expiresAtFor,
    async issue(subject, expiresAt = expiresAtFor(subject.typ)) {
      const iat = Math.floor(Date.now() / 1000);
      const exp = Math.floor(expiresAt.getTime() / 1000);
      const claims: Omit<AccessTokenClaims, "iss" | "aud" | "sub" | "iat" | "exp"> = {
        typ: subject.typ,
        role: subject.role,
        sid: subject.sid,
      };
      const token = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: TOKEN_ALG, kid: key.kid, typ: "JWT" })
        .setIssuer(config.JWT_ISSUER)
        .setAudience(config.JWT_AUDIENCE)
        .setSubject(subject.sub)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key.privateKey);
      return { token, tokenType: subject.typ, expiresAt: new Date(exp * 1000) };
    },
    currentKey: () => current,
    async verificationKeys() {
      const stored = await em.fork().find(SigningKey, { retiredAt: null }, { orderBy: { createdAt: "desc" } });
      const keys: JWK[] = [key.jwk];
      for (const row of stored) {
        if (row.kid !== key.kid) keys.push(publicJwk(row.publicJwk, row.kid));
      }
      return { keys };
    },
  };
}
