// Accounts made by Discord, by phone or for bots have no password. users.password_hash is NOT NULL, so "no
// password" is a value no argon2 verification accepts. The contact area (phone sign-in) writes the same value.
export const NO_PASSWORD_HASH = "!no-password";

/** Only a PHC string ("$argon2id$…") is a password; any sentinel, whatever area wrote it, is none. */
export function hasPassword(passwordHash: string | undefined): boolean {
  return passwordHash !== undefined && passwordHash.startsWith("$");
}

// users.email is NOT NULL and unique; accounts with no real address get one under the reserved .invalid
// TLD (RFC 2606), which can never receive mail and never clashes with a real address.
export const botEmail = (uuid: string) => `bot-${uuid}@bots.invalid`;
export const discordEmail = (discordId: string) => `discord-${discordId}@discord.invalid`;
