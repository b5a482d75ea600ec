// One room's listeners on this instance: the stage as of the last patch (its JSON form and version), the open join
// streams, and the subscriptions that feed them (patches, room chat, kicks, resets). Patches can arrive out of order
// from different instances: a patch is forwarded only as the next version; a later one waits in a buffer, and when
// the gap does not close soon the hub re-reads the stage and sends every listener the full state again. Room chat
// events carry the room's chat sequence (issue 28): the hub forwards them in that order the same way (a later one
// waits a moment for the one before), tells each new listener where the room's chat is (a ChatHead after the
// state), and when the store's chat is further on than what arrived for longer than one check (events lost on the
// way, e.g. while NATS was down) tells every listener, whose clients then load the history again.
import {
  create,
  fromBinary,
  fromJson,
  type JsonObject,
  type JsonValue,
  type MessageInitShape,
} from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { SharedMessage, type Bus, type DirectStream, type HeldCall, type Subscription } from "@tt/kit";
import { ChatEventSchema, type ChatEvent } from "@tt/proto/tt/social/v1/chat_pb";
import { StagePatchSchema, StageSchema, type KickedSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { JoinResponseSchema, type JoinResponse } from "@tt/proto/tt/social/v1/stage_service_pb";
import { applyPatch, type Operation } from "rfc6902";
import { chatRoomSubject, stagePatchSubject } from "../../subjects.ts";
import { stageJson } from "./domain.ts";

type Kind = MessageInitShape<typeof JoinResponseSchema>["kind"];

/** A message for join streams: the JoinResponse stamped with the server's time now, encoded once for every stream. */
export type Outgoing = SharedMessage<typeof JoinResponseSchema>;

export function outgoing(kind: Kind): Outgoing {
  return new SharedMessage(
    JoinResponseSchema,
    create(JoinResponseSchema, { serverTime: timestampFromDate(new Date()), kind }),
  );
}

/** The most messages a join stream may have waiting; a client that falls further behind is dropped (it rejoins). */
export const LISTENER_QUEUE_CAP = 2_000;
const NO_ONE: ReadonlySet<string> = new Set();
/**
 * The streams a message to the whole room is written to before the event loop turns (see `toAll`): about 5-10 ms of
 * writes.
 */
export const WRITES_PER_TURN = 500;

/** The sender of a chat event that carries a message, or "" (deletes, clears, reads). */
function chatSender(event: ChatEvent): string {
  const k = event.kind;
  return k.case === "created" || k.case === "edited" || k.case === "reactionsChanged" ? k.value.userUuid : "";
}

/** How long a gap in the patch versions (or the chat sequence) may last before the hub re-reads the stage (or goes on). */
const GAP_WAIT_MS = 300;

/**
 * One open join stream. Its first message (the state) is yielded; when the call came through the host's Node handler
 * every later one is written directly to the caller's response, encoded once for the whole room (the kit's
 * DirectStream), and when the kit's own handler serves the call the stream is handed over to it after the first
 * message (DirectStream.hold): nothing of the join waits for the stream's end. Otherwise later messages wait in a
 * queue that the stream's generator yields from.
 */
export class Listener {
  private readonly queue: (Outgoing | null)[] = [];
  private direct: DirectStream | undefined;
  private held: HeldCall | undefined;
  private wake: (() => void) | null = null;
  ended = false;
  /** The users this listener blocked: their room chat is not forwarded to it (as the history leaves it out). */
  blocked: ReadonlySet<string> = NO_ONE;

  constructor(
    readonly id: number,
    /** The signed-in user (users and bots); undefined for a guest. */
    readonly user: string | undefined,
    /** The guest's token subject, for counting guests once. */
    readonly guest: string | undefined,
    readonly joinedAt: number,
  ) {}

  send(message: Outgoing): void {
    if (this.ended) return;
    if (this.direct) {
      // A caller too far behind (or gone) is dropped; it rejoins.
      if (!this.direct.write(message.frame(this.direct.format))) this.end();
      return;
    }
    if (this.queue.length >= LISTENER_QUEUE_CAP) {
      this.end();
      return;
    }
    this.queue.push(message);
    this.wake?.();
  }

  /** Ends the stream after what is queued. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.held) {
      this.held.end();
      return;
    }
    this.queue.push(null);
    this.wake?.();
  }

  /**
   * The messages to yield, until the stream ends or the signal aborts. With a direct stream only the first: once it is
   * out every later message goes directly, and a call that can be held is handed over (`onHandOver` then runs
   * when the call is over, and the generator returns at once; see `handedOver`).
   */
  async *messages(signal: AbortSignal, direct?: DirectStream, onHandOver?: () => void): AsyncGenerator<JoinResponse> {
    const onAbort = () => this.wake?.();
    signal.addEventListener("abort", onAbort);
    try {
      for (;;) {
        while (this.queue.length > 0) {
          const next = this.queue.shift()!;
          if (next === null) return;
          if (this.direct) {
            if (!this.direct.write(next.frame(this.direct.format))) return;
            continue;
          }
          yield next.message;
          this.direct = direct;
        }
        if (signal.aborted) return;
        // The first message is out and what arrived meanwhile was written: the kit holds the call open from here.
        if (this.direct?.hold && onHandOver) {
          this.held = this.direct.hold(() => {
            this.ended = true;
            onHandOver();
          });
          return;
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = null;
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      if (!this.held) this.ended = true;
    }
  }

  /** Whether the kit holds this listener's call (its end runs the hand-over's callback, not the generator's). */
  get handedOver(): boolean {
    return this.held !== undefined;
  }
}

export class RoomHub {
  version = -1n;
  private json: JsonObject = {};
  private stageCache: Stage | null = null;
  readonly listeners = new Set<Listener>();
  /**
   * The listeners by who they are (a user's or a guest's streams): presence and admission ask who is here on every
   * join and action, and a room of 10,000 would otherwise be walked each time.
   */
  readonly byUser = new Map<string, Set<Listener>>();
  readonly byGuest = new Map<string, Set<Listener>>();
  private readonly buffered = new Map<bigint, Operation[]>();
  private gapTimer: NodeJS.Timeout | null = null;
  private subscriptions: Subscription[] = [];
  /** The room's chat sequence forwarded so far, in order (-1: not known yet). */
  chatSequence = -1n;
  private readonly chatBuffered = new Map<bigint, ChatEvent>();
  /** Messages to the whole room still being written, in order: each to the listeners it was for, from `next` on. */
  private readonly outbox: { to: Listener[]; next: number; deliver: (listener: Listener) => void }[] = [];
  private writing = false;
  private chatGapTimer: NodeJS.Timeout | null = null;
  /** The store's chat sequence at the last check, when the hub was behind it (see `checkChat`). */
  private chatBehind: bigint | undefined;
  readonly ready: Promise<void>;

  constructor(
    readonly roomUuid: string,
    private readonly bus: Bus,
    /** Reads the stored stage (the truth) when the hub starts or lost track of the patches. */
    private readonly load: () => Promise<Stage>,
    private readonly onError: (err: unknown) => void,
    /** More subjects of the room this hub listens to (kicks, resets), with their handlers. */
    private readonly extra: [string, (data: Uint8Array) => void][] = [],
    /** Reads the room's stored chat sequence (the chat's truth) when the hub starts. */
    private readonly loadChatSequence: () => Promise<bigint> = async () => -1n,
  ) {
    this.ready = this.start();
  }

  private async start(): Promise<void> {
    // Patches first, then the stored stage: nothing between the two is missed.
    this.subscriptions.push(
      await this.bus.subscribe(stagePatchSubject(this.roomUuid), (msg) => {
        const patch = fromBinary(StagePatchSchema, msg.data);
        this.onPatch(patch.version, JSON.parse(patch.operations) as Operation[]);
      }),
      await this.bus.subscribe(chatRoomSubject(this.roomUuid), (msg) =>
        this.onChat(fromBinary(ChatEventSchema, msg.data)),
      ),
      ...(await Promise.all(
        this.extra.map(([subject, handler]) => this.bus.subscribe(subject, (msg) => handler(msg.data))),
      )),
    );
    // As the patches: subscribed first, then the stored sequence, so nothing between the two is missed.
    const [stage, chatSequence] = await Promise.all([
      this.load(),
      this.loadChatSequence().catch((err: unknown) => {
        this.onError(err);
        return -1n;
      }),
    ]);
    if (chatSequence > this.chatSequence) this.chatSequence = chatSequence;
    this.setStage(stage);
  }

  /** The stage as the listeners of this hub have it. */
  stage(): Stage {
    this.stageCache ??= fromJson(StageSchema, this.json);
    return this.stageCache;
  }

  add(listener: Listener): void {
    this.listeners.add(listener);
    const [by, who] = this.indexOf(listener);
    if (who) {
      let streams = by.get(who);
      if (!streams) by.set(who, (streams = new Set()));
      streams.add(listener);
    }
    listener.send(outgoing({ case: "state", value: this.stage() }));
    // A client that rejoins learns whether it missed chat while it was away.
    if (this.chatSequence >= 0n) listener.send(this.chatHead(this.chatSequence));
  }

  remove(listener: Listener): void {
    this.listeners.delete(listener);
    const [by, who] = this.indexOf(listener);
    const streams = who ? by.get(who) : undefined;
    streams?.delete(listener);
    if (streams?.size === 0) by.delete(who!);
  }

  private indexOf(listener: Listener): [Map<string, Set<Listener>>, string | undefined] {
    return listener.user ? [this.byUser, listener.user] : [this.byGuest, listener.guest];
  }

  /** Sends a message to every stream of the room (room activity). */
  broadcast(message: Outgoing): void {
    this.toAll((l) => l.send(message));
  }

  /**
   * Hands a message to every listener of the room, in the order messages come. A big room's listeners are written
   * WRITES_PER_TURN at a time with a turn of the event loop between: Node's HTTP/2 sends what was written to its
   * streams only once the JavaScript running returns, so one loop over 5,000 streams held the first listener's
   * message back until the last one's was written, and the clients' side could not start meanwhile. A message starts
   * once the one before has reached every listener it was for; a listener who joins meanwhile is not among them (the
   * state it gets already holds what they carry).
   */
  private toAll(deliver: (listener: Listener) => void): void {
    if (this.outbox.length === 0 && this.listeners.size <= WRITES_PER_TURN) {
      for (const l of this.listeners) deliver(l);
      return;
    }
    this.outbox.push({ to: [...this.listeners], next: 0, deliver });
    if (!this.writing) this.writeSome();
  }

  private readonly writeSome = (): void => {
    this.writing = true;
    let budget = WRITES_PER_TURN;
    while (this.outbox.length > 0 && budget > 0) {
      const head = this.outbox[0]!;
      const end = Math.min(head.to.length, head.next + budget);
      for (let i = head.next; i < end; i++) head.deliver(head.to[i]!);
      budget -= end - head.next;
      head.next = end;
      if (end === head.to.length) this.outbox.shift();
    }
    if (this.outbox.length > 0) setImmediate(this.writeSome);
    else this.writing = false;
  };

  /** Sends the kick to the user's streams, which then end. */
  kick(user: string, kicked: MessageInitShape<typeof KickedSchema>): void {
    const message = outgoing({ case: "kicked", value: kicked });
    for (const l of this.listeners) {
      if (l.user === user) {
        l.send(message);
        l.end();
      }
    }
  }

  /** Sends a reset to every stream, which then end (the clients rejoin after a random delay). */
  reset(reason: string): void {
    const message = outgoing({ case: "reset", value: { room: this.roomUuid, reason } });
    for (const l of this.listeners) {
      l.send(message);
      l.end();
    }
  }

  /** Takes the stored stage; with `announce` every listener gets it whole (before the patches that follow it). */
  private setStage(stage: Stage, announce = false): void {
    this.json = stageJson(stage) as JsonObject;
    this.version = stage.version;
    this.stageCache = stage;
    for (const v of [...this.buffered.keys()]) if (v <= this.version) this.buffered.delete(v);
    if (announce) {
      const message = outgoing({ case: "state", value: stage });
      this.toAll((l) => l.send(message));
    }
    this.drain();
  }

  private onPatch(version: bigint, operations: Operation[]): void {
    if (this.version < 0n || version <= this.version) {
      if (this.version < 0n) this.buffered.set(version, operations);
      return;
    }
    this.buffered.set(version, operations);
    this.drain();
  }

  private drain(): void {
    for (;;) {
      const next = this.buffered.get(this.version + 1n);
      if (!next) break;
      this.buffered.delete(this.version + 1n);
      const errors = applyPatch(this.json as JsonValue, next);
      if (errors.some((e) => e !== null)) {
        void this.resync();
        return;
      }
      this.version += 1n;
      this.stageCache = null;
      const message = outgoing({ case: "patch", value: { version: this.version, operations: JSON.stringify(next) } });
      this.toAll((l) => l.send(message));
    }
    if (this.buffered.size > 0 && !this.gapTimer) {
      this.gapTimer = setTimeout(() => {
        this.gapTimer = null;
        if (this.buffered.size > 0) void this.resync();
      }, GAP_WAIT_MS);
    }
  }

  /**
   * After a NATS outage (issue 28): re-reads the stage and sends it whole when it is ahead of this hub. A change
   * stored just as the connection dropped may have lost its patch, and no later patch need come to show the gap.
   */
  async catchUp(): Promise<void> {
    try {
      const stage = await this.load();
      if (stage.version > this.version) this.setStage(stage, true);
    } catch (err) {
      this.onError(err);
    }
  }

  /** Re-reads the stage and sends it whole to every listener (they replace theirs with it). */
  private async resync(): Promise<void> {
    try {
      const stage = await this.load();
      if (stage.version < this.version) return;
      this.setStage(stage, true);
    } catch (err) {
      this.onError(err);
    }
  }

  private chatHead(sequence: bigint): Outgoing {
    return outgoing({
      case: "chat",
      value: create(ChatEventSchema, { kind: { case: "head", value: { roomUuid: this.roomUuid, sequence } } }),
    });
  }

  /** A room chat event from the bus: forwarded in sequence order (a later one waits a moment for the one before). */
  private onChat(event: ChatEvent): void {
    const sequence = event.sequence;
    if (sequence === 0n || this.chatSequence < 0n || sequence <= this.chatSequence) {
      // Not sequenced, or nothing known to order it against, or late (the client knows what to do with it).
      if (sequence > this.chatSequence && this.chatSequence < 0n) this.chatSequence = sequence;
      this.forwardChat(event);
      return;
    }
    this.chatBuffered.set(sequence, event);
    this.drainChat();
  }

  private drainChat(): void {
    for (;;) {
      const next = this.chatBuffered.get(this.chatSequence + 1n);
      if (!next) break;
      this.chatBuffered.delete(this.chatSequence + 1n);
      this.chatSequence += 1n;
      this.forwardChat(next);
    }
    if (this.chatBuffered.size > 0 && !this.chatGapTimer) {
      this.chatGapTimer = setTimeout(() => {
        this.chatGapTimer = null;
        this.flushChat();
      }, GAP_WAIT_MS);
    }
  }

  /** Forwards what waits, in order, past any hole (the clients see the hole and load the history). */
  private flushChat(): void {
    for (const sequence of [...this.chatBuffered.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      const event = this.chatBuffered.get(sequence)!;
      this.chatBuffered.delete(sequence);
      if (sequence > this.chatSequence) this.chatSequence = sequence;
      this.forwardChat(event);
    }
  }

  /**
   * Sends a chat event to the room's listeners; one who blocked its sender gets its sequence alone (a change they
   * do not see), so their sequence has no hole.
   */
  private forwardChat(event: ChatEvent): void {
    const sender = chatSender(event);
    const chat = outgoing({ case: "chat", value: event });
    let hidden: Outgoing | undefined;
    this.toAll((l) => {
      if (!sender || !l.blocked.has(sender)) l.send(chat);
      else if (event.sequence > 0n) {
        l.send((hidden ??= outgoing({ case: "chat", value: create(ChatEventSchema, { sequence: event.sequence }) })));
      }
    });
  }

  /**
   * The store's chat sequence of the room now (read every SOCIAL_CHAT_CHECK_MS). Behind it at one check may be events
   * on their way; still behind what the store had at the check before, they were lost: every listener is told where
   * the room's chat is (its client loads the history again).
   */
  checkChat(stored: bigint): void {
    if (stored <= this.chatSequence) {
      this.chatBehind = undefined;
      return;
    }
    // Nothing known yet (the store could not be read when the hub started): say where the chat is at once.
    if (this.chatSequence >= 0n && (this.chatBehind === undefined || this.chatSequence >= this.chatBehind)) {
      this.chatBehind = stored;
      return;
    }
    this.chatBehind = undefined;
    if (this.chatGapTimer) clearTimeout(this.chatGapTimer);
    this.chatGapTimer = null;
    this.flushChat();
    if (stored > this.chatSequence) this.chatSequence = stored;
    const head = this.chatHead(this.chatSequence);
    this.toAll((l) => l.send(head));
  }

  async close(): Promise<void> {
    if (this.gapTimer) clearTimeout(this.gapTimer);
    if (this.chatGapTimer) clearTimeout(this.chatGapTimer);
    this.outbox.length = 0;
    for (const l of this.listeners) l.end();
    await Promise.all(this.subscriptions.map((s) => s.unsubscribe()));
    this.subscriptions = [];
  }
}
