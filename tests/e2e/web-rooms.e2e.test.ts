// Browser journeys through the room app (issue 11): a user creates a room and a second browser finds it in the
// directory; the owner makes the second user a moderator; a banned user is refused at the door with the
// server's message. The platform in one process with the frontends mounted in the gateway, driven by headless
// Chromium (three separate browser contexts, one per user), as tests/e2e/web.e2e.test.ts does.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRoomSettings, screenshots, webSetup, type WebSetup } from "./support/web.ts";

const shot = screenshots("web");
const JOURNEY_TIMEOUT = 120_000;
const STAMP = Date.now().toString(36);
const ROOM_NAME = `Night Owls ${STAMP}`;
const PASSWORD = "correct-horse-1";

interface Account {
  email: string;
  uuid: string;
  token: string;
}

let web: WebSetup;
let platform: { url: string };
let api: WebSetup["api"];
let browser: Browser;
const contexts: BrowserContext[] = [];
const accounts: Record<"owner" | "listener" | "troublemaker", Account> = {
  owner: { email: `owner-${STAMP}@example.test`, uuid: "", token: "" },
  listener: { email: `listener-${STAMP}@example.test`, uuid: "", token: "" },
  troublemaker: { email: `banned-${STAMP}@example.test`, uuid: "", token: "" },
};

/** The nickname the user service gives an account signed up without one: its address before the @. */
const nicknameOf = (account: Account) => account.email.split("@")[0]!;

/** A fresh browser (its own context: no shared storage) signed in as the account. */
async function signedInPage(account: Account): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${platform.url}/login?lang=en`);
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByTestId("signed-in-user").waitFor();
  return page;
}

beforeAll(async () => {
  web = await webSetup();
  ({ platform, api, browser } = web);
  for (const account of Object.values(accounts)) {
    await api("POST", "/api/user-service/users/sign-up", { email: account.email, password: PASSWORD });
    const login = await api("POST", "/api/user-service/auth/login", { email: account.email, password: PASSWORD });
    account.uuid = (login.user as { uuid: string }).uuid;
    account.token = (login.accessToken as { token: string }).token;
  }
}, 300_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await web?.close();
});

describe("room app journeys", () => {
  let owner: Page;
  let listener: Page;
  let roomPath = "";

  it(
    "a user creates a room and a second browser finds it in the directory",
    async () => {
      owner = await signedInPage(accounts.owner);
      const problems: string[] = [];
      owner.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
      await owner.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Rooms" }).click();
      await owner.getByRole("link", { name: "Create a room" }).click();
      await owner.getByLabel("Name").fill(ROOM_NAME);
      await owner.getByLabel("Description").fill("Late sets for night owls");
      // The design is a picker of words (the kit's Select), not the internal value.
      await owner.getByRole("combobox", { name: "Design" }).click();
      await owner.getByRole("option", { name: "Yacht" }).click();
      await owner.getByLabel(/DJ seats/).fill("3");
      await shot(owner, "rooms-01-create");
      await owner.getByRole("button", { name: "Create the room" }).click();
      await owner.getByRole("heading", { level: 1, name: ROOM_NAME }).waitFor();
      expect(await owner.getByTestId("my-roles").textContent()).toContain("Owner");
      // The stage comes first; the room's details and the caller's roles are folded in "Room settings" (issue 14).
      await owner.getByRole("region", { name: "Live stage" }).waitFor();
      await openRoomSettings(owner, "You moderate this room");
      roomPath = new URL(owner.url()).pathname;
      expect(roomPath).toMatch(/^\/room\/r\//);
      await shot(owner, "rooms-02-room-page");

      listener = await signedInPage(accounts.listener);
      await listener.goto(`${platform.url}/room?lang=en`);
      await listener.getByRole("searchbox", { name: "Search rooms by name" }).fill(STAMP);
      const found = listener.getByRole("list", { name: "Public rooms" }).getByRole("link", { name: ROOM_NAME });
      await found.waitFor();
      await shot(listener, "rooms-03-directory");
      await found.click();
      await listener.getByRole("heading", { level: 1, name: ROOM_NAME }).waitFor();
      await openRoomSettings(listener, "You may chat");
      expect(await listener.getByRole("link", { name: "Settings" }).count()).toBe(0);
      expect(problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "the owner makes the second user a moderator",
    async () => {
      await owner.getByRole("link", { name: "Settings" }).click();
      await owner.getByRole("heading", { level: 1, name: `Settings of ${ROOM_NAME}` }).waitFor();
      const grant = owner.getByRole("form", { name: "Give a role" });
      // The person is picked by nickname among the people in the room (the listener's page is in it), never by id.
      await grant.getByRole("combobox", { name: "Person" }).fill(nicknameOf(accounts.listener).slice(0, 8));
      await owner.getByRole("option", { name: nicknameOf(accounts.listener) }).click();
      expect(await grant.getByRole("combobox", { name: "Person" }).inputValue()).toBe(nicknameOf(accounts.listener));
      await grant.getByRole("combobox", { name: "Role" }).click();
      await owner.getByRole("option", { name: "Moderator" }).click();
      await grant.getByRole("button", { name: "Give the role" }).click();
      // The role list names the person by nickname and the role by its word, never by id.
      const row = owner
        .getByRole("list", { name: "Roles" })
        .getByRole("listitem")
        .filter({ hasText: nicknameOf(accounts.listener) });
      await row.waitFor();
      expect(await row.textContent()).toContain("Moderator");
      expect(await row.textContent()).toContain("No end date");
      expect(await owner.getByRole("list", { name: "Roles" }).textContent()).not.toContain(accounts.listener.uuid);
      await shot(owner, "rooms-04-settings-moderator");

      await listener.reload();
      await listener.getByRole("heading", { level: 1, name: ROOM_NAME }).waitFor();
      await openRoomSettings(listener, "You moderate this room");
      expect(await listener.getByTestId("my-roles").textContent()).toContain("Moderator");
      await listener.getByRole("link", { name: "Settings" }).waitFor();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "a banned user is refused at the door with the message",
    async () => {
      // The troublemaker comes into the room first: the owner's person field lists who is in the room now.
      const banned = await signedInPage(accounts.troublemaker);
      await banned.goto(`${platform.url}${roomPath}?lang=en`);
      await banned.getByRole("region", { name: "Live stage" }).waitFor();
      // The stage lists a listener once it has reconciled its presence (about a second; longer on a busy machine),
      // and the person field lists whom the stage lists when it is opened.
      const listed = `/api/social-service/rooms/${roomPath.split("/").at(-1)}/listeners?limit=200`;
      for (const until = Date.now() + 30_000; ;) {
        const page = await api("GET", listed, undefined, accounts.owner.token);
        if ((page.listeners as { userUuid: string }[]).some((l) => l.userUuid === accounts.troublemaker.uuid)) break;
        if (Date.now() > until) throw new Error("the stage did not list the troublemaker within 30 s");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const kickOrBan = owner.getByRole("form", { name: "Kick or ban" });
      const person = kickOrBan.getByRole("combobox", { name: "Person" });
      await person.click();
      await person.fill(nicknameOf(accounts.troublemaker).slice(0, 6));
      const option = owner.getByRole("option", { name: nicknameOf(accounts.troublemaker) });
      await option.waitFor();
      await shot(owner, "rooms-04b-person-picker");
      await option.click();
      await kickOrBan.getByRole("button", { name: "Ban" }).click();
      // Asked first, by the person's nickname.
      const confirm = owner.getByRole("alertdialog");
      await confirm.getByRole("heading", { name: `Ban ${nicknameOf(accounts.troublemaker)} from the room?` }).waitFor();
      await confirm.getByRole("button", { name: "Ban" }).click();
      const row = owner
        .getByRole("list", { name: "Roles" })
        .getByRole("listitem")
        .filter({ hasText: nicknameOf(accounts.troublemaker) });
      await row.waitFor();
      expect(await row.textContent()).toContain("Banned");
      // The outcome is told as a toast.
      await owner
        .getByText(`${nicknameOf(accounts.troublemaker)} was banned`)
        .first()
        .waitFor();

      await banned.goto(`${platform.url}${roomPath}?lang=en`);
      await banned.getByRole("heading", { name: "You cannot enter this room" }).waitFor();
      expect(await banned.getByRole("alert").first().textContent()).toBe("You are banned from this room");
      await shot(banned, "rooms-05-banned");
    },
    JOURNEY_TIMEOUT,
  );
});
