// A new account is greeted as new on the home page, never "welcome back": remembered for this page's life, by user.
const newAccounts = new Set<string>();

export function greetAsNew(uuid: string | undefined): void {
  if (uuid) newAccounts.add(uuid);
}

export function isNewAccount(uuid: string | undefined): boolean {
  return uuid !== undefined && newAccounts.has(uuid);
}

/** After a log-out, whoever signs in next is welcomed back. */
export function forgetNewAccounts(): void {
  newAccounts.clear();
}
