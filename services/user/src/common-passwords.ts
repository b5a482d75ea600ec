// The most common passwords, refused as new passwords (OWASP ASVS 5.0 V6.2: "passwords submitted are checked
// against a set of at least the top 3,000 passwords"). The list is zxcvbn-ts's (49,233 passwords, MIT), from
// the registry package @zxcvbn-ts/language-common; all its entries are lower case.
import { createRequire } from "node:module";

let common: ReadonlySet<string> | undefined;

/** The list as a set, read on first use (half a megabyte of JSON that only calls setting a password need). */
export function commonPasswords(): ReadonlySet<string> {
  if (!common) {
    const list = createRequire(import.meta.url)("@zxcvbn-ts/language-common/src/passwords.json") as unknown;
    if (!Array.isArray(list) || list.length < 10_000) throw new Error("the common-password list did not load");
    common = new Set(list.map((entry) => String(entry).toLowerCase()));
  }
  return common;
}

/** Whether the password is on the list, in any case ("Password" is as weak as "password"). */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}
