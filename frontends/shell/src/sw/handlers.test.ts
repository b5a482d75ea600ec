import { describe, expect, it, vi } from "vitest";
import { notificationFor, openFromNotification, safePath, type WindowLike } from "./handlers.ts";

const ORIGIN = "https://tt.example";
const ROOM = "/room/r/00000000-0000-4000-9000-000000000042";

describe("the service worker's push", () => {
  it("words a DJ's start in the browser's language and opens the room it names", () => {
    const text = JSON.stringify({
      title: "DJ Nova is playing",
      body: "Now playing in Night Shift.",
      url: ROOM,
      kind: "dj-fans",
      data: { djId: "d1", djName: "DJ Nova", roomName: "Night Shift" },
    });
    expect(notificationFor(text, ORIGIN, "en-GB")).toEqual({
      title: "DJ Nova is playing",
      options: { body: "Now playing in Night Shift.", lang: "en", tag: "dj-d1", data: { url: ROOM } },
    });
    expect(notificationFor(text, ORIGIN, "es-ES")).toMatchObject({
      title: "DJ Nova está pinchando",
      options: { body: "Ahora suena en Night Shift.", lang: "es" },
    });
  });

  it("words a friend invitation in the browser's language and opens the inviter's profile", () => {
    const text = JSON.stringify({
      title: "Annie wants to be your friend",
      url: "/users/00000000-0000-4000-9000-000000000007",
      kind: "friend",
      data: { fromId: "00000000-0000-4000-9000-000000000007", fromName: "Annie" },
    });
    expect(notificationFor(text, ORIGIN, "es")).toMatchObject({
      title: "Annie quiere ser tu amigo",
      options: {
        body: "Responde a la invitación en su perfil.",
        data: { url: "/users/00000000-0000-4000-9000-000000000007" },
      },
    });
  });

  it("shows a person's message as written; a payload that is not JSON or points elsewhere stays on the site", () => {
    expect(notificationFor(JSON.stringify({ title: "Hi", body: "there", kind: "room" }), ORIGIN)).toMatchObject({
      title: "Hi",
      options: { body: "there", data: { url: "/" } },
    });
    expect(notificationFor("plain words", ORIGIN).options.body).toBe("plain words");
    expect(safePath("https://evil.example/x", ORIGIN)).toBe("/");
    expect(safePath(`${ORIGIN}/room/r/x?a=1`, ORIGIN)).toBe("/room/r/x?a=1");
  });
});

describe("the service worker's click", () => {
  const win = (url: string): WindowLike & { focus: ReturnType<typeof vi.fn>; navigate: ReturnType<typeof vi.fn> } => ({
    url,
    focus: vi.fn(async () => undefined),
    navigate: vi.fn(async () => undefined),
  });

  it("focuses the tab already on the room, else sends a tab of the site there, else opens one", async () => {
    const onRoom = win(`${ORIGIN}${ROOM}`);
    const openWindow = vi.fn(async () => undefined);
    await openFromNotification({ matchAll: async () => [win(`${ORIGIN}/`), onRoom], openWindow }, ORIGIN, ROOM);
    expect(onRoom.focus).toHaveBeenCalled();
    expect(openWindow).not.toHaveBeenCalled();

    const home = win(`${ORIGIN}/`);
    await openFromNotification({ matchAll: async () => [home], openWindow }, ORIGIN, ROOM);
    expect(home.navigate).toHaveBeenCalledWith(`${ORIGIN}${ROOM}`);
    expect(home.focus).toHaveBeenCalled();

    await openFromNotification({ matchAll: async () => [], openWindow }, ORIGIN, ROOM);
    expect(openWindow).toHaveBeenCalledWith(`${ORIGIN}${ROOM}`);
  });
});
