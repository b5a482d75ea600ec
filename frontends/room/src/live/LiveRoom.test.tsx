import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { SongSchema } from "@tt/proto/tt/playlist/v1/song_pb";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { PlayHandler, PlayRequest } from "@tt/web-kit";
import { createTestKit, recordAnalytics, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useEffect, useState } from "react";
import type { LiveAudioEngine, LiveAudioJoin } from "./live-audio.ts";
import { liveKeys } from "./api.ts";
import { LiveRoom, type ChatSlotProps, type LivePermissions, type LiveRoomProps } from "./LiveRoom.tsx";
import { CURRENT_DANCEFLOOR_KEY, KICK_DETAILS_KEY, PREVIEW_SONGS_PLAYED_KEY } from "./storage.ts";
import { clearToasts, toastTitles } from "../testing/ui.ts";
import { VOLUME_KEY } from "./Volume.tsx";
import {
  createFakeSocial,
  demoSong,
  DJ_AVATAR,
  DJ_AVATAR_IMAGE,
  DJ_UUID,
  LISTENER_UUID,
  ROOM_UUID,
  type FakeSocial,
} from "./testing.ts";

/** Stands in for the chat panel (tested on its own): shows what the page hands it. */
function ChatProbe({ feed, canSend, userUuid }: ChatSlotProps) {
  const [events, setEvents] = useState<string[]>([]);
  useEffect(() => feed.subscribe((event) => setEvents((list) => [...list, event.kind.case ?? ""])), [feed]);
  return (
    <p data-testid="chat-probe">
      {canSend ? "may send" : "reads only"} as {userUuid ?? "guest"}: {events.join(",")}
    </p>
  );
}

const LISTENER: LivePermissions = { canDj: true, canChat: true, isModerator: false };

function recordingUrlHandler() {
  const plays: PlayRequest[] = [];
  const handler: PlayHandler = {
    group: "url",
    providers: ["uploadService"],
    async play(request) {
      plays.push(request);
      return { source: request.song.streamUrls?.["uploadService"]?.hls ?? "", stop: () => undefined };
    },
  };
  return { handler, plays };
}

function render(
  social: FakeSocial,
  user?: string,
  permissions = LISTENER,
  search = "",
  fromConfig = false,
  activity = false,
  props: Partial<LiveRoomProps> = {},
) {
  const kit = createTestKit({ routes: social.routes, search });
  if (user) {
    kit.session.signIn(
      { token: `t:${user}`, tokenType: "user" },
      { uuid: user, email: `${user}@x.test`, role: "user" },
    );
  }
  const url = recordingUrlHandler();
  const sink = recordAnalytics(kit);
  renderWithKit(
    <LiveRoom
      room={ROOM_UUID}
      permissions={permissions}
      {...(fromConfig ? {} : { players: [] })}
      urlHandler={url.handler}
      previewLimit={1}
      activity={activity}
      renderChat={(props) => <ChatProbe {...props} />}
      {...props}
    />,
    kit,
  );
  return { kit, plays: url.plays, sink };
}

/** A stage where the DJ plays the demo song, started 30 s ago by the server's clock. */
function playing(social: FakeSocial, startedAgoMs = 30_000, explicit = false) {
  social.change((stage) => {
    stage.seats = [{ $typeName: "tt.social.v1.StageSeat", userUuid: DJ_UUID }];
    stage.play = {
      $typeName: "tt.social.v1.StagePlay",
      playId: "play-1",
      djUuid: DJ_UUID,
      song: demoSong({ explicit }),
      duration: 120,
      startedAt: timestampFromMs(Date.now() - startedAgoMs),
    };
  });
}

describe("the live room (issue 14)", () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => localStorage.clear());

  it("shows the booth, the song now playing, and plays it at the room's position", async () => {
    const social = createFakeSocial();
    playing(social);
    const { plays } = render(social, LISTENER_UUID);
    expect(await screen.findByTestId("live-title")).toHaveProperty("textContent", "Demo Song");
    expect(screen.getByText("by Demo Artist")).toBeTruthy();
    const seats = screen.getByRole("list", { name: "DJ booth" });
    expect(within(seats).getAllByRole("listitem")).toHaveLength(2);
    expect(within(seats).getByText("Free seat")).toBeTruthy();
    // The DJ by their nickname (profiles in a batch).
    expect(await within(seats).findByText("DJ Nightjar")).toBeTruthy();
    expect(screen.getByText("DJ DJ Nightjar")).toBeTruthy();
    await waitFor(() => expect(plays).toHaveLength(1));
    expect(plays[0]!.provider).toBe("uploadService");
    // Started 30 s ago: the player starts there (within the test's own running time).
    expect(plays[0]!.startAt).toBeGreaterThanOrEqual(29);
    expect(plays[0]!.startAt).toBeLessThan(40);
    expect(localStorage.getItem(CURRENT_DANCEFLOOR_KEY)).toBe("lounge");
  });

  it("plays with the runtime configuration's players, none when /remotes.json names none", async () => {
    const social = createFakeSocial();
    playing(social);
    const { plays } = render(social, LISTENER_UUID, LISTENER, "", true);
    await waitFor(() => expect(plays).toHaveLength(1));
  });

  it("skips an explicit song for a listener in the chat platform's activity whose explicit audio is off", async () => {
    const social = createFakeSocial();
    playing(social, 30_000, true);
    const { plays } = render(social, LISTENER_UUID, LISTENER, "", false, true);
    expect((await screen.findByTestId("live-explicit")).textContent).toContain("explicit audio is off");
    expect(social.calls.some((call) => call.method === "GetUserData")).toBe(true);
    expect(plays).toHaveLength(0);
    // Outside the activity the same song plays.
    const elsewhere = createFakeSocial();
    playing(elsewhere, 30_000, true);
    const other = render(elsewhere, LISTENER_UUID);
    await waitFor(() => expect(other.plays).toHaveLength(1));
  });

  it("follows a new slug of the room: the stored room and the cached join answer", async () => {
    const social = createFakeSocial();
    const { kit } = render(social, LISTENER_UUID);
    kit.queryClient.setQueryData(["rooms", "join", "lounge", ""], { room: { uuid: ROOM_UUID, slug: "lounge" } });
    await screen.findByRole("list", { name: "DJ booth" });
    expect(localStorage.getItem(CURRENT_DANCEFLOOR_KEY)).toBe("lounge");
    social.change((stage) => {
      stage.room!.slug = "lounge-2";
    });
    await waitFor(() => expect(localStorage.getItem(CURRENT_DANCEFLOOR_KEY)).toBe("lounge-2"));
    expect(kit.queryClient.getQueryData(["rooms", "join", "lounge", ""])).toMatchObject({
      room: { uuid: ROOM_UUID, slug: "lounge-2" },
    });
    // The page's title and details follow the stage's name and look too.
    social.change((stage) => {
      stage.room!.name = "Lounge Two";
      stage.room!.design = "YACHT";
    });
    await waitFor(() =>
      expect(kit.queryClient.getQueryData(["rooms", "join", "lounge", ""])).toMatchObject({
        room: { uuid: ROOM_UUID, slug: "lounge-2", name: "Lounge Two", design: "YACHT" },
      }),
    );
  });

  it("draws the viewer's friends and followed DJs nearest the stage, and not the room's no-dancefloor users", async () => {
    const social = createFakeSocial();
    const friend = "00000000-0000-4000-8000-0000000000f1";
    const followed = "00000000-0000-4000-8000-0000000000f2";
    const stranger = "00000000-0000-4000-8000-0000000000f3";
    const kicked = "00000000-0000-4000-8000-0000000000f4";
    social.people.friendships.add(`${LISTENER_UUID}→${friend}`);
    social.people.follows.add(`${LISTENER_UUID}→${followed}`);
    social.roles.push({ userUuid: kicked, role: "kicked" });
    social.change((stage) => (stage.dancefloor = [LISTENER_UUID, friend, followed, stranger, kicked]));
    render(social, LISTENER_UUID);
    const spot = (user: string) => document.querySelector(`.tt-crowd__spot[data-user="${user}"]`);
    await waitFor(() => expect(spot(friend)?.getAttribute("data-near")).toBe("true"));
    await waitFor(() => expect(spot(followed)?.getAttribute("data-near")).toBe("true"));
    expect(spot(stranger)?.getAttribute("data-near")).toBeNull();
    await waitFor(() => expect(spot(kicked)).toBeNull());
    expect(spot(stranger)).not.toBeNull();
    const asked = social.calls.find((call) => call.method === "ListNoDancefloorUsers");
    expect(asked?.input).toMatchObject({
      roomId: ROOM_UUID,
      userIds: [LISTENER_UUID, friend, followed, stranger, kicked],
    });
  });

  it("hands the chat panel the stream's chat events; guests read only", async () => {
    const social = createFakeSocial();
    render(social, LISTENER_UUID);
    await screen.findByRole("list", { name: "DJ booth" });
    social.send({ kind: { case: "chat", value: { kind: { case: "cleared", value: {} } } } });
    await waitFor(() =>
      expect(screen.getByTestId("chat-probe").textContent).toBe(`may send as ${LISTENER_UUID}: cleared`),
    );
    const guestSocial = createFakeSocial();
    render(guestSocial);
    await waitFor(() => expect(screen.getAllByTestId("chat-probe")[1]!.textContent).toBe("reads only as guest: "));
  });

  it("keeps the chat, and what it holds, when the window crosses between the desktop's and the phone's layout", async () => {
    let phone = false;
    const changes = new Set<() => void>();
    vi.stubGlobal("matchMedia", () => ({
      get matches() {
        return phone;
      },
      addEventListener: (_: string, listener: () => void) => changes.add(listener),
      removeEventListener: (_: string, listener: () => void) => changes.delete(listener),
    }));
    try {
      const social = createFakeSocial();
      render(social, LISTENER_UUID);
      await screen.findByRole("list", { name: "DJ booth" });
      social.send({ kind: { case: "chat", value: { kind: { case: "cleared", value: {} } } } });
      const probe = await screen.findByText(`may send as ${LISTENER_UUID}: cleared`);
      expect(probe.closest(".tt-live-side")).not.toBeNull();
      phone = true;
      act(() => changes.forEach((listener) => listener()));
      await screen.findByRole("tablist", { name: "The room's panels" });
      // The same panel, moved into the phone's chat tab: its events kept.
      expect(screen.getByTestId("chat-probe")).toBe(probe);
      expect(probe.closest("[role=tabpanel]")).not.toBeNull();
      expect(probe.textContent).toBe(`may send as ${LISTENER_UUID}: cleared`);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("applies the patches that follow: a like from someone else shows, and the booth goes silent", async () => {
    const social = createFakeSocial();
    playing(social);
    render(social, LISTENER_UUID);
    await screen.findByTestId("live-title");
    social.change((stage) => {
      stage.votes = {
        $typeName: "tt.social.v1.StageVotes",
        likes: 2,
        dislikes: 0,
        grabs: 0,
        byUser: {},
        grabbedBy: {},
      };
    });
    expect(await screen.findByRole("button", { name: "Like · 2 likes" })).toBeTruthy();
    social.change((stage) => {
      stage.play = undefined;
      stage.seats = [];
    });
    expect(await screen.findByTestId("live-silent")).toBeTruthy();
    expect(social.joins()).toBe(1);
  });

  it("likes the current play and shows the server's refusal of a dislike", async () => {
    const social = createFakeSocial();
    playing(social);
    const { sink } = render(social, LISTENER_UUID);
    fireEvent.click(await screen.findByRole("button", { name: /^Like/ }));
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Like · 1 like" }).getAttribute("aria-pressed")).toBe("true"),
    );
    // Done by the server, so tracked as a feedback action (spec 002 §7); the refused dislike below is not.
    expect(sink.of("feedback-action")).toEqual([{ action: "like", roomUuid: ROOM_UUID, playId: "play-1" }]);
    expect(social.calls.find((call) => call.method === "Like")).toMatchObject({
      caller: LISTENER_UUID,
      input: { room: ROOM_UUID, playId: "play-1" },
    });
    fireEvent.click(screen.getByRole("button", { name: /^Dislike/ }));
    expect((await screen.findByRole("alert")).textContent).toBe("You cannot vote on your own song");
    expect(sink.of("feedback-action")).toHaveLength(1);
  });

  it("takes a seat and leaves it; shows the listener's queue", async () => {
    const social = createFakeSocial();
    const { sink } = render(social, LISTENER_UUID);
    fireEvent.click(await screen.findByRole("button", { name: "Take a seat" }));
    fireEvent.click(await screen.findByRole("button", { name: "Leave the seat" }));
    await screen.findByRole("button", { name: "Take a seat" });
    await waitFor(() => expect(sink.of("room-action").map((r) => r.action)).toEqual(["take-seat", "leave-seat"]));
    expect(social.calls.map((call) => call.method).filter((m) => m.endsWith("Seat"))).toEqual([
      "TakeSeat",
      "LeaveSeat",
    ]);
    const queue = await screen.findByRole("list", { name: "Your queue" });
    await waitFor(() => expect(within(queue).getAllByRole("listitem")).toHaveLength(2));
    fireEvent.click(screen.getByRole("button", { name: "Move Second – Demo Artist up" }));
    await waitFor(() => expect(within(queue).getAllByRole("listitem")[0]!.textContent).toContain("Second"));
    fireEvent.click(screen.getByRole("button", { name: "Remove Demo Song – Demo Artist" }));
    await waitFor(() => expect(within(queue).getAllByRole("listitem")).toHaveLength(1));
  });

  it("puts the demo songs under an empty queue on a fresh install: one click queues one", async () => {
    const social = createFakeSocial();
    social.queue.splice(0);
    const demo = (title: string, index: number) =>
      create(SongSchema, {
        songId: `00000000-0000-4000-8000-0000000d000${index}`,
        trackName: `Demo: ${title}`,
        artistName: "turntable demo",
        duration: 30 + index,
        demo: true,
      });
    social.catalogue.push(demo("Slow Chords", 2), demo("Sine Arpeggio", 1));
    render(social, LISTENER_UUID);
    const shelf = await screen.findByRole("region", { name: "Start here" });
    expect(screen.getByText("Your queue is empty: add songs from your crates to play them.")).toBeTruthy();
    expect(social.calls.find((call) => call.method === "ListSongs")?.input).toMatchObject({ demo: true });
    expect(within(shelf).getByText("0:31")).toBeTruthy();

    fireEvent.click(
      within(shelf).getByRole("button", { name: "Add Demo: Sine Arpeggio – turntable demo to your queue" }),
    );
    const queue = screen.getByRole("list", { name: "Your queue" });
    await waitFor(() => expect(within(queue).getAllByRole("listitem")).toHaveLength(1));
    expect(within(queue).getByRole("listitem").textContent).toContain("Demo: Sine Arpeggio – turntable demo");
    expect(social.calls.find((call) => call.method === "AddQueueSongs")?.input).toMatchObject({
      songs: [{ songId: "00000000-0000-4000-8000-0000000d0001" }],
    });
    // A queued song says so rather than being added twice; the others stay one click away.
    const queued = await within(shelf).findByRole<HTMLButtonElement>("button", {
      name: "Queued: Demo: Sine Arpeggio – turntable demo",
    });
    expect(queued.disabled).toBe(true);
    expect(
      within(shelf).getByRole<HTMLButtonElement>("button", {
        name: "Add Demo: Slow Chords – turntable demo to your queue",
      }).disabled,
    ).toBe(false);
  });

  it("shows no shelf when the catalogue has no demo songs (production)", async () => {
    const social = createFakeSocial();
    const { kit } = render(social, LISTENER_UUID);
    await screen.findByRole("list", { name: "Your queue" });
    await waitFor(() => expect(kit.queryClient.getQueryState(liveKeys.startHere)?.status).toBe("success"));
    await act(async () => undefined);
    expect(screen.queryByText("Start here")).toBeNull();
  });

  it("lets a guest listen without seats or votes, then asks them to sign up past the preview threshold", async () => {
    const social = createFakeSocial();
    playing(social);
    localStorage.setItem(PREVIEW_SONGS_PLAYED_KEY, "0");
    const { plays } = render(social);
    await screen.findByTestId("live-title");
    expect(screen.getByText("Sign in to take a DJ seat.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Take a seat" })).toBeNull();
    expect(screen.getByRole("button", { name: /^Like/ })).toHaveProperty("disabled", true);
    await waitFor(() => expect(plays).toHaveLength(1));
    // The next song is the second this guest hears: past the threshold of 1.
    social.change((stage) => {
      stage.play!.playId = "play-2";
    });
    expect((await screen.findByRole("alert")).textContent).toContain("Sign up to keep listening");
    expect(localStorage.getItem(PREVIEW_SONGS_PLAYED_KEY)).toBe("2");
  });

  it("shows a kicked listener out with the kick's details, and keeps them", async () => {
    const social = createFakeSocial();
    render(social, LISTENER_UUID);
    await screen.findByRole("list", { name: "DJ booth" });
    social.send({
      kind: {
        case: "kicked",
        value: { room: ROOM_UUID, by: DJ_UUID, reason: "kicked", until: timestampFromMs(Date.UTC(2030, 0, 1)) },
      },
    });
    const notice = await screen.findByRole("alert");
    expect(notice.textContent).toContain("You were removed from this room");
    // Until when in the reader's words, and who by their nickname, never an id.
    await waitFor(() => expect(notice.textContent).toContain("By DJ Nightjar"));
    expect(notice.textContent).toMatch(/(1 January|January 1), 2030|1 January 2030/);
    expect(notice.textContent).not.toContain(DJ_UUID);
    expect(screen.queryByRole("list", { name: "DJ booth" })).toBeNull();
    expect(JSON.parse(localStorage.getItem(KICK_DETAILS_KEY)!)).toMatchObject({ room: ROOM_UUID, by: DJ_UUID });
    expect(localStorage.getItem(CURRENT_DANCEFLOOR_KEY)).toBeNull();
  });

  it("rejoins on the resync button and says live audio is unavailable without Agora", async () => {
    const social = createFakeSocial();
    social.stage.room!.liveAudio = true;
    render(social, LISTENER_UUID);
    await waitFor(() => expect(screen.getByTestId("live-audio").textContent).toContain("Agora is not configured"));
    fireEvent.click(screen.getByRole("button", { name: "Resync" }));
    await waitFor(() => expect(social.joins()).toBe(2));
  });

  it("shows the DJs' and the dancefloor's avatars (one profile batch, one lookup per avatar), generated ones otherwise", async () => {
    const social = createFakeSocial();
    const other = "00000000-0000-4000-8000-0000000000e2";
    const third = "00000000-0000-4000-8000-0000000000e3";
    social.avatarIds.set(other, "retired-avatar");
    social.avatarIds.set(third, DJ_AVATAR);
    playing(social);
    social.change((stage) => (stage.dancefloor = [DJ_UUID, LISTENER_UUID, other, third]));
    render(social, LISTENER_UUID);
    const seats = await screen.findByRole("list", { name: "DJ booth" });
    // In the booth the avatar is decoration beside the DJ's name: the merch image they wear.
    await waitFor(() => expect(seats.querySelector("img")?.getAttribute("src")).toBe(DJ_AVATAR_IMAGE));
    const dancefloor = screen.getByRole("list", { name: "People in the room" });
    // In the people panel each person is named by their nickname beside their avatar: the merch image, else the
    // default generated from their id (an SVG drawn in the page), also for an avatar the merch service no longer knows.
    await waitFor(() =>
      expect(
        within(dancefloor)
          .getAllByRole("button")
          .map((row) => {
            const src = row.querySelector("img")?.getAttribute("src");
            return [row.textContent, src?.startsWith("data:image/svg+xml") ? "generated" : src];
          }),
      ).toEqual([
        ["DJ NightjarDJ", DJ_AVATAR_IMAGE],
        ["You", "generated"],
        ["Someone", "generated"],
        ["Someone", DJ_AVATAR_IMAGE],
      ]),
    );
    expect(dancefloor.textContent).not.toContain(other);
    const profileCalls = social.calls.filter((call) => call.method === "GetProfiles");
    expect(profileCalls.at(-1)!.input).toMatchObject({ users: [DJ_UUID, LISTENER_UUID, other, third].sort() });
    const slugs = social.calls
      .filter((call) => call.method === "GetAvatar")
      .map((call) => (call.input as { slug: string }).slug);
    expect(slugs.sort()).toEqual([DJ_AVATAR, "retired-avatar"]);
    // An image that fails to load falls back to the generated one.
    fireEvent.error(seats.querySelector("img")!);
    await waitFor(() => expect(seats.querySelector("img")?.getAttribute("src")).toMatch(/^data:image\/svg\+xml/));
  });

  it("gives a moderator a menu on each DJ (kick and ban confirmed first); a person on the floor or in the panel opens their card", async () => {
    const social = createFakeSocial();
    playing(social);
    social.change((stage) => (stage.dancefloor = [DJ_UUID, LISTENER_UUID]));
    clearToasts();
    render(social, LISTENER_UUID, { canDj: true, canChat: true, isModerator: true });
    const seats = await screen.findByRole("list", { name: "DJ booth" });
    const menu = await within(seats).findByRole("button", { name: "Actions for DJ Nightjar" });
    fireEvent.keyDown(menu, { key: "Enter" });
    const items = await screen.findByRole("menu");
    expect(
      within(items)
        .getAllByRole("menuitem")
        .map((item) => item.textContent),
    ).toEqual(["Remove from the seat", "Kick from the room…", "Ban from the room…"]);
    fireEvent.click(within(items).getByRole("menuitem", { name: "Kick from the room…" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(within(dialog).getByRole("heading").textContent).toBe("Kick DJ Nightjar from the room?");
    expect(social.calls.some((call) => call.method === "KickUserFromRoom")).toBe(false);
    fireEvent.click(within(dialog).getByRole("button", { name: "Kick" }));
    await waitFor(() =>
      expect(social.calls.find((call) => call.method === "KickUserFromRoom")).toMatchObject({
        caller: LISTENER_UUID,
        input: { roomId: ROOM_UUID, userId: DJ_UUID },
      }),
    );
    await waitFor(() => expect(toastTitles()).toContain("DJ Nightjar was kicked"));
    // On the floor every avatar is a button named by the nickname that opens the person's card (issue 25: the
    // card carries a moderator's actions), the listener's own too.
    const floor = screen.getByRole("list", { name: "Dancefloor" });
    expect(within(floor).queryByRole("button", { name: /^Actions for/ })).toBeNull();
    expect(await within(floor).findByRole("button", { name: "DJ Nightjar" })).toBeTruthy();
    expect(within(floor).getByRole("button", { name: "You" })).toBeTruthy();
    // A person in the people panel opens their card, where the moderator's actions are.
    const people = screen.getByRole("list", { name: "People in the room" });
    fireEvent.click(within(people).getByRole("button", { name: /^DJ Nightjar/ }));
    const card = await screen.findByRole("dialog", { name: "DJ Nightjar" });
    const moderation = within(card).getByRole("region", { name: "Moderation" });
    expect(within(moderation).getByRole("button", { name: "Kick…" })).toBeTruthy();
    expect(within(moderation).getByRole("button", { name: "Ban…" })).toBeTruthy();
  });

  it("sets the room's volume with the slider and mutes with a pressed button", async () => {
    localStorage.setItem(VOLUME_KEY, "30");
    const social = createFakeSocial();
    playing(social);
    render(social, LISTENER_UUID);
    const slider = await screen.findByRole("slider", { name: "Volume" });
    expect(slider.getAttribute("aria-valuenow")).toBe("30");
    const media = screen.getByTestId("tt-player-media") as HTMLAudioElement;
    await waitFor(() => expect(media.volume).toBeCloseTo(0.3));
    const mute = screen.getByRole("button", { name: "Mute" });
    expect(mute.getAttribute("aria-pressed")).toBe("false");
    fireEvent.click(mute);
    expect(mute.getAttribute("aria-pressed")).toBe("true");
    expect(media.muted).toBe(true);
    fireEvent.keyDown(slider, { key: "ArrowRight" });
    await waitFor(() => expect(media.muted).toBe(false));
    expect(localStorage.getItem(VOLUME_KEY)).toBe("1");
  });

  it("with Agora, the owner of a room whose live audio is on publishes into its channel, until it goes off", async () => {
    const social = createFakeSocial();
    social.stage.room!.liveAudio = true;
    const joins: LiveAudioJoin[] = [];
    const left: LiveAudioJoin[] = [];
    const engine: LiveAudioEngine = {
      async join(request) {
        joins.push(request);
        return { leave: async () => void left.push(request) };
      },
    };
    const appId = "0123456789abcdef0123456789abcdef";
    render(social, DJ_UUID, LISTENER, "", false, false, { agoraAppId: appId, loadLiveAudio: async () => engine });
    // It says "Joining…" first; on air once the engine has joined.
    await waitFor(() => expect(screen.getByTestId("live-audio").textContent).toContain("You are on air"));
    expect(joins).toEqual([{ appId, channel: ROOM_UUID, token: "agora-PUBLISHER", uid: DJ_UUID, role: "PUBLISHER" }]);
    expect(social.calls.find((call) => call.method === "CreateAgoraToken")).toMatchObject({
      caller: DJ_UUID,
      input: { channel: ROOM_UUID, role: "PUBLISHER" },
    });
    social.change((stage) => (stage.room!.liveAudio = false));
    await waitFor(() => expect(left).toHaveLength(1));
    expect(screen.queryByTestId("live-audio")).toBeNull();
  });

  it("speaks Spanish", async () => {
    const social = createFakeSocial();
    playing(social);
    render(social, LISTENER_UUID, LISTENER, "?lang=es");
    expect(await screen.findByRole("heading", { name: "Sonando ahora" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Resincronizar" })).toBeTruthy();
    expect(screen.getByText("de Demo Artist")).toBeTruthy();
  });
});
