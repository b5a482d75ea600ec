import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import {
  type ChatMessage,
  type ChatPlaylistPreview,
  ChatEventSchema,
  ChatMessageSchema,
} from "@tt/proto/tt/social/v1/chat_pb";
import { ChatService } from "@tt/proto/tt/social/v1/chat_service_pb";
import { RoomActivityKind, RoomActivitySchema, type RoomActivity } from "@tt/proto/tt/social/v1/stage_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { createTestKit, installFollowObserver, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { createChatFeed, createFeed, type ChatFeed } from "../chat-feed.ts";
import { ChatPanel, crateHref } from "./ChatPanel.tsx";
import { isEditable, mentions, mergeHistory, visibleItems, withActivities, type ChatItem } from "./chat-state.ts";
import { openDirectChat } from "./open-direct.ts";
import { chooseTab, clearToasts, toastTitles } from "../../testing/ui.ts";

const ROOM = "11111111-1111-4111-8111-111111111111";
const ME = "22222222-2222-4222-8222-222222222222";
const ANA = "33333333-3333-4333-8333-333333333333";
const BEN = "44444444-4444-4444-8444-444444444444";

let nextId = 1n;
function msg(init: MessageInitShape<typeof ChatMessageSchema> & { uuid: string }): ChatMessage {
  return create(ChatMessageSchema, {
    id: nextId++,
    type: "user",
    roomUuid: ROOM,
    userUuid: ANA,
    userName: "Ana",
    avatarId: "a1",
    reportIdentifier: init.uuid,
    date: timestampFromMs(Date.now()),
    ...init,
  });
}

interface FakeChat {
  routes(router: ConnectRouter): void;
  history: ChatMessage[];
  /** The room's chat sequence the history answers with (issue 28). */
  sequence: bigint;
  /** How often the room's history was asked for. */
  historyCalls: number;
  sends: string[];
  failNextSends: number;
  reactions: string[];
  /** The name colour of the peer's direct messages. */
  directColor: string;
}

function fakeChat(): FakeChat {
  const fake: FakeChat = {
    history: [],
    sequence: 0n,
    historyCalls: 0,
    sends: [],
    failNextSends: 0,
    reactions: [],
    directColor: "",
    routes: (router) =>
      router.service(ChatService, {
        listRoomMessages: () => {
          fake.historyCalls += 1;
          return { messages: fake.history, roomUuid: ROOM, chatSequence: fake.sequence };
        },
        sendRoomMessage: (req) => {
          fake.sends.push(req.message!.uuid);
          if (fake.failNextSends > 0) {
            fake.failNextSends--;
            throw new ConnectError("the chat is away", Code.Unavailable);
          }
          return {
            message: msg({ uuid: req.message!.uuid, message: req.message!.message, userUuid: ME, userName: "Me" }),
          };
        },
        toggleReaction: (req) => {
          fake.reactions.push(`${req.uuid}:${req.emoji}`);
          const base = fake.history.find((m) => m.uuid === req.uuid)!;
          return {
            added: true,
            message: {
              ...base,
              reactions: {
                [req.emoji]: {
                  $typeName: "tt.social.v1.ChatReactionList",
                  users: [{ $typeName: "tt.social.v1.ChatReaction", userUuid: ME, messageId: base.id, name: "Me" }],
                },
              },
            },
          };
        },
        listConversations: () => ({
          conversations: [
            { peerUuid: ANA, peerName: "Ana", group: "FRIENDS", unreadCount: 2 },
            { peerUuid: BEN, peerName: "Ben", group: "OTHERS", unreadCount: 1 },
          ],
          unread: { FRIENDS: 2, OTHERS: 1, UNSET: 0 },
        }),
        listDirectMessages: (req) => ({
          messages: [
            msg({
              uuid: crypto.randomUUID(),
              roomUuid: "",
              receiverUuid: ME,
              userUuid: req.user,
              message: "hey you",
              color: fake.directColor,
            }),
          ],
        }),
        markConversationRead: () => ({ lastReadId: 1n }),
      }),
  };
  return fake;
}

function render(fake: FakeChat, opts: { user?: string; feed?: ChatFeed; search?: string; moderator?: boolean } = {}) {
  const kit = createTestKit({ routes: fake.routes, search: opts.search ?? "" });
  if (opts.user) {
    kit.session.signIn(
      { token: `t:${opts.user}`, tokenType: "user" },
      { uuid: opts.user, email: "me@x.test", role: "user" },
    );
  }
  const feed = opts.feed ?? createChatFeed();
  renderWithKit(
    <ChatPanel
      room={ROOM}
      feed={feed}
      canSend={opts.user !== undefined}
      userUuid={opts.user}
      isModerator={opts.moderator ?? false}
    />,
    kit,
  );
  return { feed };
}

const messages = () => screen.findAllByTestId("chat-message");

describe("the chat panel (issue 14)", () => {
  it("shows the history, then live events, without duplicates by uuid", async () => {
    const fake = fakeChat();
    const first = msg({ uuid: crypto.randomUUID(), message: "hello" });
    fake.history = [first];
    const { feed } = render(fake, { user: ME });
    expect((await messages()).map((m) => m.textContent)).toEqual([expect.stringContaining("hello")]);

    const live = msg({ uuid: crypto.randomUUID(), message: "live one", userName: "Ben", userUuid: BEN });
    feed.publish(create(ChatEventSchema, { kind: { case: "created", value: live } }));
    feed.publish(create(ChatEventSchema, { kind: { case: "created", value: live } }));
    await waitFor(async () => expect(await messages()).toHaveLength(2));

    feed.publish(create(ChatEventSchema, { kind: { case: "deleted", value: { uuid: first.uuid, roomUuid: ROOM } } }));
    await waitFor(async () => expect((await messages()).map((m) => m.dataset.uuid)).toEqual([live.uuid]));
  });

  it("keeps a failed send with a retry button; the retry sends the same uuid", async () => {
    const fake = fakeChat();
    fake.failNextSends = 1;
    render(fake, { user: ME });
    fireEvent.change(await screen.findByRole("textbox", { name: "Say something…" }), { target: { value: "hi all" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Not sent");
    expect((await messages())[0]!.textContent).toContain("hi all");
    fireEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
    expect(fake.sends).toHaveLength(2);
    expect(fake.sends[1]).toBe(fake.sends[0]);
    expect(await messages()).toHaveLength(1);
  });

  it("toggles a reaction through the server and shows its count", async () => {
    const fake = fakeChat();
    const m = msg({ uuid: crypto.randomUUID(), message: "react" });
    fake.history = [m];
    render(fake, { user: ME });
    fireEvent.click(await screen.findByRole("button", { name: "React with 🔥" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "React with 🔥" }).textContent).toBe("🔥 1"));
    expect(screen.getByRole("button", { name: "React with 🔥" }).getAttribute("aria-pressed")).toBe("true");
    expect(fake.reactions).toEqual([`${m.uuid}:🔥`]);
  });

  it("lets guests read the room chat without a composer or tabs", async () => {
    const fake = fakeChat();
    fake.history = [msg({ uuid: crypto.randomUUID(), message: "for everyone" })];
    render(fake);
    expect((await messages())[0]!.textContent).toContain("for everyone");
    expect(screen.queryByRole("textbox")).toBeNull();
    expect(screen.queryByRole("tablist")).toBeNull();
    expect(screen.getByText("Sign in to chat. You can read the room's chat as a guest.")).toBeTruthy();
  });

  it("hides a message its reader reported (the hidden event on their subject)", async () => {
    const fake = fakeChat();
    const m = msg({ uuid: crypto.randomUUID(), message: "rude" });
    fake.history = [m];
    const { feed } = render(fake, { user: ME });
    await messages();
    feed.publish(
      create(ChatEventSchema, { kind: { case: "reportedHidden", value: { uuid: m.uuid, reportIdentifier: m.uuid } } }),
    );
    feed.publish(
      create(ChatEventSchema, { kind: { case: "created", value: msg({ uuid: crypto.randomUUID(), message: "ok" }) } }),
    );
    await waitFor(async () =>
      expect((await messages()).map((x) => x.textContent)).toEqual([expect.stringContaining("ok")]),
    );
  });

  it("shows a playlist preview as a card that opens the crate in the crates app", async () => {
    const fake = fakeChat();
    const crateUuid = "55555555-5555-4555-8555-555555555555";
    const preview = (init: Partial<ChatPlaylistPreview>) => ({
      $typeName: "tt.social.v1.ChatPlaylistPreview" as const,
      crateName: "Friday mix",
      crateUuid,
      provider: "",
      thumbnails: ["https://img.test/mix-1.jpg"],
      isCurrentUserPlaylist: false,
      userUuid: ANA,
      totalSongs: 12,
      userName: "Ana",
      songs: [
        { $typeName: "tt.social.v1.ChatPlaylistSong" as const, title: "One", artist: "The Band", artwork: "" },
        { $typeName: "tt.social.v1.ChatPlaylistSong" as const, title: "Two", artist: "The Band", artwork: "" },
      ],
      ...init,
    });
    fake.history = [
      msg({ uuid: crypto.randomUUID(), message: `https://tt.example/crates/${crateUuid}`, playlist: preview({}) }),
    ];
    const { feed } = render(fake, { user: ME });
    const card = await screen.findByRole("link", { name: "Open the playlist Friday mix" });
    expect(card.getAttribute("href")).toBe(`/crates/${crateUuid}`);
    expect(card.getAttribute("target")).toBe("_blank");
    expect(card.textContent).toContain("Friday mix");
    expect(card.textContent).toContain("by Ana · 12 songs");
    expect(
      within(card)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["One — The Band", "Two — The Band"]);
    expect(card.querySelector("img")?.getAttribute("src")).toBe("https://img.test/mix-1.jpg");

    // A live event does not know its reader: my own crate is "mine" by its owner's uuid.
    const mine = preview({ crateName: "Mine", userUuid: ME, userName: "Me", totalSongs: 1, thumbnails: [], songs: [] });
    feed.publish(
      create(ChatEventSchema, {
        kind: { case: "created", value: msg({ uuid: crypto.randomUUID(), userUuid: ME, playlist: mine }) },
      }),
    );
    const own = await screen.findByRole("link", { name: "Open the playlist Mine" });
    expect(own.textContent).toContain("your playlist · 1 song");
    expect(own.querySelector("img")).toBeNull();
    expect(crateHref("a b")).toBe("/crates/a%20b");
  });

  it("shows the playlist card in Spanish", async () => {
    const fake = fakeChat();
    fake.history = [
      msg({
        uuid: crypto.randomUUID(),
        message: "mira",
        playlist: {
          crateName: "Viernes",
          crateUuid: "66666666-6666-4666-8666-666666666666",
          userUuid: ANA,
          userName: "Ana",
          totalSongs: 3,
        },
      }),
    ];
    render(fake, { user: ME, search: "?lang=es" });
    const card = await screen.findByRole("link", { name: "Abrir la lista Viernes" });
    expect(card.textContent).toContain("de Ana · 3 canciones");
  });

  it("shows direct-message tabs with unread counters and opens a conversation (Spanish)", async () => {
    const fake = fakeChat();
    render(fake, { user: ME, search: "?lang=es" });
    const tabs = await screen.findByRole("tablist", { name: "Conversaciones" });
    await waitFor(() => expect(within(tabs).getByRole("tab", { name: /Amigos/ }).textContent).toContain("2"));
    expect(within(tabs).getByRole("tab", { name: /Otros/ }).textContent).toContain("1");
    // The count is said in words to a screen reader.
    expect(within(tabs).getByRole("tab", { name: "Amigos, 2 sin leer" })).toBeTruthy();
    chooseTab(within(tabs).getByRole("tab", { name: /Amigos/ }));
    // And on each conversation, as text (a badge is a span, which may not carry aria-label).
    fireEvent.click(await screen.findByRole("button", { name: "Ana, 2 sin leer" }));
    expect(await screen.findByRole("list", { name: "Conversación con Ana" })).toBeTruthy();
    expect((await messages())[0]!.textContent).toContain("hey you");
  });
});

describe("the chat panel on the kit (issue 24)", () => {
  it("keeps more than a screenful in a virtual list, drawing only the rows in view, the newest in view", async () => {
    layOut();
    const fake = fakeChat();
    fake.history = Array.from({ length: 200 }, (_, i) => msg({ uuid: crypto.randomUUID(), message: `line ${i}` }));
    render(fake, { user: ME });
    const list = await screen.findByRole("list", { name: "Messages" });
    await waitFor(() => expect(within(list).getAllByTestId("chat-message").length).toBeGreaterThan(0));
    const rows = within(list).getAllByRole("listitem");
    expect(rows.length).toBeLessThan(200);
    expect(rows[0]!.getAttribute("aria-setsize")).toBe("200");
    // The newest message is drawn: the list follows the end.
    await waitFor(() => expect(list.querySelector('[aria-posinset="200"]')?.textContent).toContain("line 199"));
  });

  it("offers a message's other actions in a menu, and tells the outcome of a report", async () => {
    const fake = fakeChat();
    const reported: string[] = [];
    const m = msg({ uuid: crypto.randomUUID(), message: "rude" });
    fake.history = [m];
    const routes = fake.routes;
    fake.routes = (router) => {
      routes(router);
      router.service(ChatService, {
        listRoomMessages: () => ({ messages: fake.history, roomUuid: ROOM }),
        listConversations: () => ({ conversations: [], unread: {} }),
        reportMessage: (req) => {
          reported.push(req.uuid);
          return { reportIdentifier: req.uuid };
        },
      });
    };
    clearToasts();
    render(fake, { user: ME });
    const more = await screen.findByRole("button", { name: "More actions on Ana's message" });
    fireEvent.keyDown(more, { key: "Enter" });
    const menu = await screen.findByRole("menu");
    expect(
      within(menu)
        .getAllByRole("menuitem")
        .map((item) => item.textContent),
    ).toEqual(["Reply", "Report"]);
    fireEvent.click(within(menu).getByRole("menuitem", { name: "Report" }));
    await waitFor(() => expect(reported).toEqual([m.uuid]));
    await waitFor(() => expect(toastTitles()).toContain("Reported. The message is hidden for you."));
    await waitFor(() => expect(screen.queryAllByTestId("chat-message")).toHaveLength(0));
  });

  it("says there are no messages yet, and what a guest can do", async () => {
    render(fakeChat());
    expect(await screen.findByRole("heading", { name: "No messages yet." })).toBeTruthy();
    expect(screen.getByText("Sign in to chat. You can read the room's chat as a guest.")).toBeTruthy();
  });
});

describe("the chat panel when live events were lost (issue 28)", () => {
  const created = (sequence: number, m: ChatMessage) =>
    create(ChatEventSchema, { sequence: BigInt(sequence), kind: { case: "created", value: m } });
  const shown = async () => (await messages()).map((m) => m.dataset.uuid);

  it("a skipped number of the room's chat sequence reloads the history and merges it: every message once, in order", async () => {
    const fake = fakeChat();
    const [a, b, c, d] = ["a", "b", "c", "d"].map((text) => msg({ uuid: crypto.randomUUID(), message: text }));
    fake.history = [a!];
    fake.sequence = 1n;
    const { feed } = render(fake, { user: ME });
    await waitFor(async () => expect(await shown()).toEqual([a!.uuid]));
    feed.publish(created(2, b!));
    await waitFor(async () => expect(await shown()).toEqual([a!.uuid, b!.uuid]));
    expect(fake.historyCalls).toBe(1);

    // c (3) never arrives; d (4) shows the hole.
    fake.history = [a!, b!, c!, d!];
    fake.sequence = 4n;
    feed.publish(created(4, d!));
    await waitFor(async () => expect(await shown()).toEqual([a!.uuid, b!.uuid, c!.uuid, d!.uuid]), { timeout: 5_000 });
    expect(fake.historyCalls).toBe(2);
    // c arriving late changes nothing.
    feed.publish(created(3, c!));
    feed.publish(created(4, d!));
    await waitFor(async () => expect(await shown()).toHaveLength(4));
  });

  it("a head beyond what the panel has (a stream that got nothing during an outage) reloads; one at it does not", async () => {
    const fake = fakeChat();
    const [a, b] = ["a", "b"].map((text) => msg({ uuid: crypto.randomUUID(), message: text }));
    fake.history = [a!];
    fake.sequence = 5n;
    const { feed } = render(fake, { user: ME });
    await waitFor(async () => expect(await shown()).toEqual([a!.uuid]));
    const head = (sequence: bigint) =>
      create(ChatEventSchema, { kind: { case: "head", value: { roomUuid: ROOM, sequence } } });
    feed.publish(head(5n));
    fake.history = [a!, b!];
    fake.sequence = 6n;
    feed.publish(head(6n));
    await waitFor(async () => expect(await shown()).toEqual([a!.uuid, b!.uuid]), { timeout: 5_000 });
    expect(fake.historyCalls).toBe(2);
  });
});

describe("chat state (002 §4, §5)", () => {
  const item = (m: ChatMessage): ChatItem => ({ message: m, status: "sent" });

  it("merges history by uuid, merging reactions", () => {
    const uuid = crypto.randomUUID();
    const reaction = (user: string) => ({
      $typeName: "tt.social.v1.ChatReactionList" as const,
      users: [{ $typeName: "tt.social.v1.ChatReaction" as const, userUuid: user, messageId: 1n, name: "" }],
    });
    const mine = [item(msg({ uuid, message: "x", reactions: { "👍": reaction(ANA) } }))];
    const merged = mergeHistory(mine, [msg({ uuid, message: "x", reactions: { "👍": reaction(BEN) } })]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.message.reactions["👍"]!.users.map((u) => u.userUuid)).toEqual([ANA, BEN]);
  });

  it("issue 28: a history read before a message's latest live change does not undo it", () => {
    const uuid = crypto.randomUUID();
    const edited = { ...item(msg({ uuid, message: "edited" })), sequence: 7n };
    expect(mergeHistory([edited], [msg({ uuid, message: "before" })], 6n)[0]!.message.message).toBe("edited");
    expect(mergeHistory([edited], [msg({ uuid, message: "after" })], 7n)[0]!.message.message).toBe("after");
  });

  it("of consecutive non-consumable room messages shows only the last; consumables all show", () => {
    const notice = (text: string) => item(msg({ uuid: crypto.randomUUID(), type: "room", message: text }));
    const consumable = item(
      msg({
        uuid: crypto.randomUUID(),
        type: "room",
        consumable: {
          $typeName: "tt.social.v1.ChatConsumable",
          id: "c",
          name: "Confetti",
          tokenCost: 1,
          fileUrl: "",
          purchaseId: "p",
        },
      }),
    );
    const user = item(msg({ uuid: crypto.randomUUID(), message: "hi" }));
    const list = [notice("a"), notice("b"), user, notice("c"), consumable, consumable];
    expect(visibleItems(list, new Set()).map((i) => i.message.message || i.message.consumable?.name)).toEqual([
      "b",
      "hi",
      "c",
      "Confetti",
      "Confetti",
    ]);
  });

  it("only the reader's latest plain-text message under 20 seconds old is editable", () => {
    const now = Date.now();
    const a = item(msg({ uuid: crypto.randomUUID(), userUuid: ME, message: "one", date: timestampFromMs(now - 1000) }));
    const b = item(msg({ uuid: crypto.randomUUID(), userUuid: ME, message: "two", date: timestampFromMs(now - 1000) }));
    const list = [a, b];
    expect(isEditable(list, a, ME, now)).toBe(false);
    expect(isEditable(list, b, ME, now)).toBe(true);
    expect(isEditable(list, b, ME, now + 20_000)).toBe(false);
    expect(isEditable(list, b, ANA, now)).toBe(false);
  });
});

describe("the chat panel as the room's column (issue 25)", () => {
  const CARO = "55555555-5555-4555-8555-555555555555";
  const NICKNAMES: Record<string, string> = { [ME]: "Mina", [ANA]: "Ana", [BEN]: "Ben", [CARO]: "Caro" };
  /** Name colours in the profiles (the reader's draws their drafts). */
  const COLORS: Record<string, string> = { [ME]: "#3b82f6" };

  function renderRoom(fake: FakeChat, opts: { user?: string; search?: string; people?: string[] } = {}) {
    const kit = createTestKit({
      routes: (router) => {
        fake.routes(router);
        router.service(ProfileService, {
          getProfiles: (req) => ({
            profiles: req.users
              .filter((u) => NICKNAMES[u])
              .map((uuid) => ({ uuid, nickname: NICKNAMES[uuid], color: COLORS[uuid] ?? "" })),
          }),
        });
      },
      search: opts.search ?? "",
    });
    if (opts.user) {
      kit.session.signIn(
        { token: `t:${opts.user}`, tokenType: "user" },
        { uuid: opts.user, email: "me@x.test", role: "user" },
      );
    }
    const feed = createChatFeed();
    const activity = createFeed<RoomActivity>();
    renderWithKit(
      <ChatPanel
        room={ROOM}
        feed={feed}
        activity={activity}
        people={opts.people ?? [ANA, BEN, ME]}
        canSend={opts.user !== undefined}
        userUuid={opts.user}
        isModerator={false}
      />,
      kit,
    );
    return { feed, activity };
  }
  const announce = (init: MessageInitShape<typeof RoomActivitySchema>) => create(RoomActivitySchema, init);

  it("shows what happened in the room as system lines after the messages, and says the newest politely", async () => {
    const fake = fakeChat();
    clearToasts();
    fake.history = [msg({ uuid: crypto.randomUUID(), message: "nice tune" })];
    const { activity } = renderRoom(fake, { user: ME });
    await messages();
    activity.publish(announce({ kind: RoomActivityKind.SEAT_TAKEN, userUuid: BEN }));
    activity.publish(
      announce({ kind: RoomActivityKind.VOTE_SKIPPED, userUuid: BEN, dislikes: 3, threshold: 3, likes: 1 }),
    );
    await waitFor(() =>
      expect(screen.getAllByTestId("chat-activity").map((l) => l.textContent)).toEqual([
        expect.stringContaining("Ben took a DJ seat"),
        expect.stringContaining("Ben's song was skipped by the room: 3 of 3 dislikes"),
      ]),
    );
    // Lines, not messages: no actions, no sender; the stored message stays the only chat message.
    expect(await messages()).toHaveLength(1);
    const list = screen.getByRole("list", { name: "Messages" });
    const rows = within(list).getAllByText(/nice tune|took a DJ seat|skipped by the room/);
    expect(rows.map((r) => r.textContent)[0]).toContain("nice tune");
    const live = screen.getByTestId("chat-activity-live");
    expect(live.getAttribute("aria-live")).toBe("polite");
    expect(live.textContent).toBe("Ben's song was skipped by the room: 3 of 3 dislikes");
    // Not my song: no toast for me.
    expect(toastTitles()).toEqual([]);
    // A line that arrives while another tab is open is kept.
    chooseTab(screen.getByRole("tab", { name: /Others/ }));
    activity.publish(announce({ kind: RoomActivityKind.KICKED, userUuid: CARO }));
    await waitFor(() => expect(live.textContent).toBe("Caro was kicked from the room"));
    chooseTab(screen.getByRole("tab", { name: /Room/ }));
    await waitFor(() => expect(screen.getAllByTestId("chat-activity")).toHaveLength(3));
  });

  it("tells the DJ whose song the room skipped with a toast too", async () => {
    clearToasts();
    const { activity } = renderRoom(fakeChat(), { user: BEN });
    await screen.findByRole("tablist");
    activity.publish(
      announce({ kind: RoomActivityKind.VOTE_SKIPPED, userUuid: BEN, dislikes: 2, threshold: 2, likes: 0 }),
    );
    await waitFor(() => expect(toastTitles()).toContain("The room skipped your song: 2 of 2 dislikes"));
    // The line in the chat speaks to them as well, not of them.
    await waitFor(() =>
      expect(screen.getByTestId("chat-activity").textContent).toContain("The room skipped your song: 2 of 2 dislikes"),
    );
    clearToasts();
  });

  it("says the lines in Spanish, and to a guest", async () => {
    const { activity } = renderRoom(fakeChat(), { search: "?lang=es" });
    activity.publish(announce({ kind: RoomActivityKind.MODERATOR_SKIPPED, userUuid: ANA, byUuid: BEN }));
    activity.publish(announce({ kind: RoomActivityKind.SEAT_LEFT, userUuid: ANA }));
    await waitFor(() =>
      expect(screen.getAllByTestId("chat-activity").map((l) => l.textContent)).toEqual([
        expect.stringContaining("Ben saltó la canción de Ana"),
        expect.stringContaining("Ana dejó la cabina"),
      ]),
    );
  });

  it("completes @nicknames from the people in the room, by keyboard and by pointer", async () => {
    const fake = fakeChat();
    renderRoom(fake, { user: ME, people: [ANA, BEN, CARO, ME] });
    const box = await screen.findByRole("textbox", { name: "Say something…" });
    await screen.findByText("No messages yet.");
    fireEvent.change(box, { target: { value: "hi @" } });
    const options = await screen.findByRole("listbox", { name: "People to mention" });
    // Everyone in the room but me, by name.
    expect(
      within(options)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["@Ana", "@Ben", "@Caro"]);
    fireEvent.change(box, { target: { value: "hi @b" } });
    await waitFor(() =>
      expect(
        within(screen.getByRole("listbox"))
          .getAllByRole("option")
          .map((o) => o.textContent),
      ).toEqual(["@Ben"]),
    );
    fireEvent.keyDown(box, { key: "Enter" });
    expect((box as HTMLInputElement).value).toBe("hi @Ben ");
    expect(screen.queryByRole("listbox")).toBeNull();
    fireEvent.change(box, { target: { value: "hi @Ben and @" } });
    fireEvent.keyDown(box, { key: "ArrowDown" });
    const selected = within(await screen.findByRole("listbox"))
      .getAllByRole("option")
      .find((o) => o.getAttribute("aria-selected") === "true")!;
    expect(selected.textContent).toBe("@Ben");
    expect(box.getAttribute("aria-activedescendant")).toBe(selected.id);
    fireEvent.mouseDown(within(screen.getByRole("listbox")).getByRole("option", { name: "@Caro" }));
    expect((box as HTMLInputElement).value).toBe("hi @Ben and @Caro ");
    fireEvent.change(box, { target: { value: "@A" } });
    await screen.findByRole("listbox");
    fireEvent.keyDown(box, { key: "Escape" });
    expect(screen.queryByRole("listbox")).toBeNull();
  });

  it("highlights the messages that mention me, only those", async () => {
    const fake = fakeChat();
    fake.history = [
      msg({ uuid: "m1", message: "hey @mina, your turn" }),
      msg({ uuid: "m2", message: "hey @Minal" }),
      msg({ uuid: "m3", message: "no mention of Mina" }),
    ];
    renderRoom(fake, { user: ME });
    await waitFor(() =>
      expect(screen.getAllByTestId("chat-message").filter((m) => m.dataset.mention === "true")).toHaveLength(1),
    );
    const mentioned = screen.getAllByTestId("chat-message").find((m) => m.dataset.mention === "true")!;
    expect(mentioned.dataset.uuid).toBe("m1");
    expect(mentioned.textContent).toContain("mentions you");
  });

  /** The name at the head of a message row. */
  const nameOf = async (uuid: string) =>
    (await messages()).find((m) => m.dataset.uuid === uuid)!.querySelector<HTMLElement>(".tt-chat-message__name")!;
  /** The colour a name is drawn in on each theme (tokens.css picks one by the page's theme); none: the default. */
  const colours = (name: HTMLElement) =>
    name.classList.contains("tt-name-color")
      ? { dark: name.style.getPropertyValue("--tt-name-dark"), light: name.style.getPropertyValue("--tt-name-light") }
      : undefined;

  it("draws each sender's name in their colour, made readable on the dark and the light theme", async () => {
    const fake = fakeChat();
    fake.history = [
      msg({ uuid: "c1", message: "bright", userUuid: ANA, userName: "Ana", color: "#ffff00" }),
      msg({ uuid: "c2", message: "dim", userUuid: BEN, userName: "Ben", color: "#1a1a1a" }),
      msg({ uuid: "c3", message: "teal", userUuid: CARO, userName: "Caro", color: "#14b8a6" }),
      msg({ uuid: "c4", message: "plain", userUuid: CARO, userName: "Caro", color: "" }),
    ];
    renderRoom(fake, { user: ME });
    // Yellow is unreadable on white and black on the dark surfaces: each is darkened or lightened for that theme.
    expect(colours(await nameOf("c1"))).toEqual({ dark: "#ffff00", light: "#6f6f00" });
    expect(colours(await nameOf("c2"))).toEqual({ dark: "#8d8d8d", light: "#1a1a1a" });
    expect(colours(await nameOf("c3"))).toEqual({ dark: "#14b8a6", light: "#0d786d" });
    expect((await nameOf("c1")).textContent).toBe("Ana");
    // No colour chosen: the default, as before (no style of its own).
    const plain = await nameOf("c4");
    expect(colours(plain)).toBeUndefined();
    expect(plain.getAttribute("style")).toBeNull();
  });

  it("draws the reader's message in their name and colour before the server answered", async () => {
    const fake = fakeChat();
    fake.failNextSends = 1;
    renderRoom(fake, { user: ME });
    const box = await screen.findByRole("textbox", { name: "Say something…" });
    // The reader's profile (their nickname is known) has loaded before they write.
    fireEvent.change(box, { target: { value: "hi @" } });
    await screen.findByRole("listbox", { name: "People to mention" });
    fireEvent.change(box, { target: { value: "mine" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await screen.findByRole("alert");
    const draft = (await messages())[0]!;
    const name = draft.querySelector<HTMLElement>(".tt-chat-message__name")!;
    expect(name.textContent).toBe("Mina");
    expect(colours(name)).toEqual({ dark: "#488bf7", light: "#0b61ee" });
  });

  it("draws names in their colour in a direct conversation too", async () => {
    const fake = fakeChat();
    fake.directColor = "#eab308";
    renderRoom(fake, { user: ME });
    await screen.findByRole("tablist");
    act(() => openDirectChat(ANA));
    const list = await screen.findByRole("list", { name: "Conversation with Ana" });
    const name = (await within(list).findAllByTestId("chat-message"))[0]!.querySelector<HTMLElement>(
      ".tt-chat-message__name",
    )!;
    expect(name.textContent).toBe("Ana");
    expect(colours(name)).toEqual({ dark: "#eab308", light: "#866705" });
  });

  it("opens the conversation asked for from elsewhere (a profile card's Message), in its tab", async () => {
    const fake = fakeChat();
    renderRoom(fake, { user: ME });
    await screen.findByRole("tablist");
    act(() => openDirectChat(ANA));
    expect(await screen.findByRole("list", { name: "Conversation with Ana" })).toBeTruthy();
    expect(screen.getByRole("tab", { name: /Friends/ }).getAttribute("aria-selected")).toBe("true");
    // Someone without a conversation yet: OTHERS, named by their profile.
    act(() => openDirectChat(CARO));
    await waitFor(() => expect(screen.getByRole("tab", { name: /Others/ }).getAttribute("aria-selected")).toBe("true"));
    expect(await screen.findByRole("list", { name: "Conversation with Caro" })).toBeTruthy();
  });

  it("places activity lines where they arrived among the messages", () => {
    const a = { status: "sent" as const, message: msg({ uuid: "a" }) };
    const b = { status: "sent" as const, message: msg({ uuid: "b" }) };
    const pending = { status: "sending" as const, message: create(ChatMessageSchema, { uuid: "p", id: 0n }) };
    const line = { seq: 1, after: a.message.id, at: Date.now(), activity: announce({ kind: 4 }) };
    const rows = withActivities([a, b, pending], [line]);
    expect(rows.map((r) => r.message.uuid)).toEqual(["a", "activity-1", "b", "p"]);
    expect(withActivities([a], [{ ...line, after: b.message.id }]).map((r) => r.message.uuid)).toEqual([
      "a",
      "activity-1",
    ]);
    expect(mentions("hi @Ana!", "ana")).toBe(true);
    expect(mentions("hi @Anabel", "Ana")).toBe(false);
    expect(mentions("mail@Ana", "Ana")).toBe(false);
  });
});

// jsdom lays nothing out: for the tests of scrolling, rows are 64 px tall, the list's box scrolls over its content
// (the list inside, as tall as its rows) within its 440 px and stops at the end as a browser's box does, and a
// ResizeObserver reports the box and its list (installFollowObserver). Undone when the test finishes.
function layOut() {
  const content = (box: HTMLElement) => parseFloat((box.firstElementChild as HTMLElement | null)?.style.height ?? "0");
  const isBox = (element: HTMLElement) => element.classList.contains("tt-vlist");
  const tops = new WeakMap<Element, number>();
  const stubs: Record<string, PropertyDescriptor> = {
    offsetHeight: {
      get(this: HTMLElement) {
        return this.classList.contains("tt-vlist-row") ? 64 : 0;
      },
    },
    scrollHeight: {
      get(this: HTMLElement) {
        return isBox(this) ? content(this) : 0;
      },
    },
    clientHeight: {
      get(this: HTMLElement) {
        return isBox(this) ? Math.min(content(this), parseFloat(this.style.maxHeight)) : 0;
      },
    },
    scrollTop: {
      get(this: HTMLElement) {
        return tops.get(this) ?? 0;
      },
      set(this: HTMLElement, top: number) {
        const max = isBox(this) ? Math.max(0, this.scrollHeight - this.clientHeight) : top;
        tops.set(this, Math.max(0, Math.min(top, max)));
      },
    },
  };
  const restoreObserver = installFollowObserver();
  for (const [name, stub] of Object.entries(stubs)) {
    Object.defineProperty(HTMLElement.prototype, name, { configurable: true, ...stub });
  }
  onTestFinished(() => {
    restoreObserver();
    for (const name of Object.keys(stubs)) Reflect.deleteProperty(HTMLElement.prototype, name);
  });
}

describe("the chat panel while messages arrive (issue 25: fast with a full room)", () => {
  it("follows new messages at the end; scrolled up, stays and counts them, and the button brings the reader back", async () => {
    layOut();
    const fake = fakeChat();
    fake.history = Array.from({ length: 30 }, (_, i) => msg({ uuid: crypto.randomUUID(), message: `line ${i}` }));
    const { feed } = render(fake, { user: ME });
    const list = await screen.findByRole("list", { name: "Messages" });
    const box = list.parentElement!;
    const end = () => box.scrollHeight - box.clientHeight;
    // (jsdom sends no scroll event for a write, as a browser does: the test sends it.)
    const scrolled = (top?: number) =>
      act(() => {
        if (top !== undefined) box.scrollTop = top;
        fireEvent.scroll(box);
      });
    await waitFor(() => expect(box.scrollTop).toBe(30 * 64 - 440));
    scrolled();
    const say = (message: string) =>
      feed.publish(
        create(ChatEventSchema, {
          kind: { case: "created", value: msg({ uuid: crypto.randomUUID(), message, userUuid: BEN }) },
        }),
      );

    // A new message draws its own row: its time is the only one written (the rows in view are not drawn again).
    const formats = vi.spyOn(Intl.DateTimeFormat.prototype as { format: unknown }, "format", "get");
    act(() => say("followed"));
    await waitFor(() => expect(box.scrollTop).toBe(31 * 64 - 440));
    scrolled();
    expect(within(list).getByText("followed")).toBeTruthy();
    expect(formats).toHaveBeenCalledTimes(1);
    formats.mockRestore();
    expect(screen.queryByRole("button", { name: /new message/ })).toBeNull();

    // The reader scrolls up to read: new messages leave them there and are counted.
    scrolled(100);
    act(() => say("one"));
    act(() => say("two"));
    const jump = await screen.findByRole("button", { name: "2 new messages" });
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(box.scrollTop).toBe(100);

    fireEvent.click(jump);
    await waitFor(() => expect(box.scrollTop).toBe(end()));
    expect(end()).toBe(33 * 64 - 440);
    scrolled();
    await waitFor(() => expect(screen.queryByRole("button", { name: /new message/ })).toBeNull());
    expect(within(list).getByText("two")).toBeTruthy();
  });
});
