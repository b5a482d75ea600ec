import { randomInt } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { VoucherSchema as VoucherMessageSchema, type Voucher as VoucherMessage } from "@tt/proto/tt/user/v1/voucher_pb";
import type { Voucher } from "./voucher.entity.ts";
import { optionalTimestamp as ts } from "@tt/kit";

export const CAPABILITIES = ["uploadMusic", "promoteRoom"] as const;
export const BADGES = ["VERIFIED", "PLATINUM", "DOUBLE_PLATINUM", "JQBX", "STAFF"] as const;

export const VOUCHER_CODE_MISSING = "voucher code missing in request";
export const VOUCHER_NOT_FOUND = "voucher not found";
export const VOUCHER_NOT_REDEEMABLE = "voucher can not be redeemed";
export const VOUCHER_CODE_TAKEN = "voucher code already exists";
export const VOUCHER_REDEEMED = "a redeemed voucher can not be revoked";
export const VOUCHER_CODE_INVALID = "voucher code must be 4-64 letters, digits or dashes";

// No 0/O, 1/I/L: codes are read aloud and typed from paper.
const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const CODE_PATTERN = /^[A-Z0-9-]{4,64}$/;

export function generateVoucherCode(length = 12): string {
  let code = "";
  for (let i = 0; i < length; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Codes compare case-insensitively: stored and looked up upper-cased. */
export function normalizeVoucherCode(code: string): string {
  return code.trim().toUpperCase();
}

export function checkVoucherCode(code: string): string {
  const normalized = normalizeVoucherCode(code);
  if (!CODE_PATTERN.test(normalized)) throw new ConnectError(VOUCHER_CODE_INVALID, Code.InvalidArgument);
  return normalized;
}

/** Deduplicated, in the given order; 400 naming the first unknown value. */
export function checkValues(field: string, values: readonly string[], allowed: readonly string[]): string[] {
  for (const value of values) {
    if (!allowed.includes(value)) {
      throw new ConnectError(
        `unknown ${field} ${JSON.stringify(value)}, expected any of ${allowed.join(", ")}`,
        Code.InvalidArgument,
      );
    }
  }
  return [...new Set(values)];
}

export function isRedeemable(voucher: Voucher, now = new Date()): boolean {
  return voucher.status === "PENDING" && (voucher.expiresAt == null || voucher.expiresAt > now);
}

/** Adds what is not there yet, keeping the existing order. */
export function merged(existing: readonly string[], added: readonly string[]): string[] {
  return [...new Set([...existing, ...added])];
}

export function toVoucherMessage(voucher: Partial<Voucher>): VoucherMessage {
  return create(VoucherMessageSchema, {
    id: voucher.id ?? "",
    code: voucher.code ?? "",
    status: voucher.status ?? "",
    capabilities: [...(voucher.capabilities ?? [])],
    badges: [...(voucher.badges ?? [])],
    note: voucher.note ?? "",
    createdByUuid: voucher.createdByUuid ?? "",
    redeemedByUuid: voucher.redeemedByUuid ?? "",
    createdAt: ts(voucher.createdAt),
    expiresAt: ts(voucher.expiresAt),
    redeemedAt: ts(voucher.redeemedAt),
    revokedAt: ts(voucher.revokedAt),
  });
}
