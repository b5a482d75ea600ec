import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import "../../testing/ui.ts";
import { createFakeSocial, DJ_UUID, ROOM_UUID, type FakeSocial } from "../testing.ts";
import { onOpenPersonCard } from "./person-card.ts";
import { PeoplePanel } from "./PeoplePanel.tsx";

const ME = "00000000-0000-4000-8000-0000000000e1";
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const ANA = uuid(101);
const BEN = uuid(102);
const CAT = uuid(103);
const DEE = uuid(104);
const MOD = uuid(105);

function render(social: FakeSocial, me: string | undefined = ME, search = "") {
  const kit = createTestKit({ routes: social.routes, search });
  if (me) {
    kit.session.signIn({ token: `t:${me}`, tokenType: "user" }, { uuid: me, email: `${me}@x.test`, role: "user" });
  }
  return renderWithKit(<PeoplePanel room={ROOM_UUID} stage={social.stage} me={me} />, kit);
}

/** The rows drawn now: section heads as "# Title n", people by their visible text. */
function drawn(): string[] {
  const list = screen.getByRole("list", { name: "People in the room" });
  return within(list)
    .getAllByRole("listitem")
    .map((row) => (row.querySelector("h3") ? `# ${row.textContent}` : (row.textContent ?? "")));
}

describe("the people panel (issue 25)", () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it("lists the DJs, the moderators here, then the listeners with friends and followed DJs first", async () => {
    const social = createFakeSocial();
    for (const [id, name] of [
      [ME, "Me"],
      [ANA, "Ana"],
      [BEN, "Ben"],
      [CAT, "Cat"],
      [DEE, "Dee"],
      [MOD, "Mo"],
    ] as const) {
      social.nicknames.set(id, name);
    }
    social.stage.seats = [{ $typeName: "tt.social.v1.StageSeat", userUuid: DJ_UUID }];
    social.stage.dancefloor = [ME, ANA, BEN, MOD, CAT, DEE];
    social.stage.listeners = { $typeName: "tt.social.v1.StageListeners", users: 7, guests: 2 };
    social.roles.push({ userUuid: MOD, role: "moderator" });
    // Cat is a friend, Dee a DJ I follow: both come first among the listeners.
    social.people.friendships.add(`${ME}→${CAT}`);
    social.people.follows.add(`${ME}→${DEE}`);
    render(social);
    await waitFor(() =>
      expect(drawn()).toEqual([
        "# DJs 1",
        "DJ NightjarDJ",
        "# Moderators 1",
        "MoModerator",
        "# Listeners 5",
        "CatFriend",
        "DeeYou follow",
        "You",
        "Ana",
        "Ben",
      ]),
    );
    expect(screen.getByTestId("people-count").textContent).toBe("7 listening, 2 guests");
    // Each row opens the person's card.
    const opened: string[] = [];
    stop = onOpenPersonCard((user) => opened.push(user));
    fireEvent.click(screen.getByRole("button", { name: /^Cat/ }));
    expect(opened).toEqual([CAT]);
  });

  it("searches by nickname and says when nobody matches", async () => {
    const social = createFakeSocial();
    social.nicknames.set(ANA, "Ana Banana");
    social.nicknames.set(BEN, "Ben");
    social.stage.dancefloor = [ANA, BEN];
    render(social);
    await waitFor(() => expect(drawn()).toContain("Ana Banana"));
    fireEvent.change(screen.getByRole("searchbox", { name: "Search by nickname" }), { target: { value: "BANANA" } });
    await waitFor(() => expect(drawn()).toEqual(["# Listeners 1", "Ana Banana"]));
    fireEvent.change(screen.getByRole("searchbox", { name: "Search by nickname" }), { target: { value: "zed" } });
    expect(await screen.findByText("Nobody here matches “zed”.")).toBeTruthy();
  });

  it("draws only the rows in view of 10,000 listeners, pages as it goes, and searches them all", async () => {
    const social = createFakeSocial();
    const everyone = Array.from({ length: 10_000 }, (_, i) => uuid(10_000 + i));
    everyone.forEach((id, i) => social.nicknames.set(id, `Listener ${i}`));
    social.listeners = everyone;
    social.stage.dancefloor = everyone.slice(0, 50);
    social.stage.listeners = { $typeName: "tt.social.v1.StageListeners", users: 10_000, guests: 0 };
    render(social);
    const list = await screen.findByRole("list", { name: "People in the room" });
    await waitFor(() => expect(drawn()[0]).toBe("# Listeners 10,000"));
    const rows = within(list).getAllByRole("listitem");
    // A window of rows, each saying its place among the loaded ones; one page of listeners asked so far.
    expect(rows.length).toBeLessThan(30);
    expect(rows[1]!.textContent).toBe("Listener 0");
    await waitFor(() =>
      expect(social.calls.filter((call) => call.method === "ListListeners").map((call) => call.input)).toMatchObject([
        { room: ROOM_UUID, limit: 150, offset: 0 },
      ]),
    );
    // A search looks through every listener: the pages are fetched until the last.
    fireEvent.change(screen.getByRole("searchbox", { name: "Search by nickname" }), {
      target: { value: "listener 9999" },
    });
    await waitFor(() => expect(drawn()).toEqual(["# Listeners 1", "Listener 9999"]), { timeout: 30_000 });
    expect(social.calls.filter((call) => call.method === "ListListeners")).toHaveLength(Math.ceil(10_000 / 150));
  }, 60_000);

  it("says nobody listens in an empty room", async () => {
    render(createFakeSocial(), undefined);
    expect(await screen.findByText("Nobody is listening yet.")).toBeTruthy();
  });
});
