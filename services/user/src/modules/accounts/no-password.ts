// Accounts made by Discord or for bots have no password. users.password_hash is NOT NULL, so "no password"
// is an empty hash: argon2 refuses to verify against it, so no password ever matches it.
export const NO_PASSWORD_HASH = "";

export function hasPassword(passwordHash: string | undefined): boolean {
  return passwordHash !== undefined && passwordHash !== NO_PASSWORD_HASH;
}

// users.email is NOT NULL and unique; accounts with no real address get one under the reserved .invalid
// TLD (RFC 2606), which can never receive mail and never clashes with a real address.
export const PLACEHOLDER_EMAIL_DOMAIN = ".invalid";

export function isPlaceholderEmail(email: string): boolean {
  return email.endsWith(PLACEHOLDER_EMAIL_DOMAIN);
}

export const botEmail = (uuid: string) => `bot-${uuid}@bots.invalid`;
export const discordEmail = (discordId: string) => `discord-${discordId}@discord.invalid`;
