// Guest passwords of private rooms: an argon2id hash to verify (as account passwords) and a keyed lookup hash
// (HMAC-SHA256 with ROOM_GUEST_PASSWORD_PEPPER) so POST /rooms/list finds the candidate rooms by index.
import { createHmac } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";

const HASH_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashGuestPassword(password: string): Promise<string> {
  return hash(password, HASH_OPTIONS);
}

export async function verifyGuestPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

export function guestPasswordLookup(pepper: string, password: string): string {
  return createHmac("sha256", pepper).update(password, "utf8").digest("hex");
}
