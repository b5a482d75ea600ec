// The client side of the join stream (spec 002 §4 "Room join", §8, §9; issue 14's contract): the first message is
// the full Stage, then each change is an RFC 6902 JSON Patch of the Stage's proto3 JSON form with its version.
// The client rejoins (a fresh stream, hence a full state) on a version gap, a patch that fails, a stream that
// breaks (reconnect), and after a random delay of up to 2 s on a room reset; a kick ends it for good and its
// details are kept. Chat events ride the same stream and are handed on as they come.
//
// Shared by the web room (frontends/room, through `@tt/bot/stage-connection`) and the bot kit's room session, so a
// bot and a browser follow the same rules. It imports nothing of Node or of the DOM.
import { fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { ChatEvent } from "@tt/proto/tt/social/v1/chat_pb";
import { StageSchema, type Kicked, type RoomActivity, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import type { JoinResponse } from "@tt/proto/tt/social/v1/stage_service_pb";
import { Code, ConnectError } from "@connectrpc/connect";
import { applyPatch, type Operation } from "rfc6902";

/** Spec 002 §9: a room reset is followed by a rejoin after a random delay of up to this. */
export const RESET_REJOIN_MAX_DELAY_MS = 2000;
/** After a broken stream: the first retry at once-ish, then slower, at most this far apart. */
export const RECONNECT_MAX_DELAY_MS = 5000;
/** Spec 002 §8: the log line of a patch that does not apply. */
export const FAILED_PATCH_LOG = "Failed to apply the room state patch";

export type ConnectionStatus = "connecting" | "live" | "reconnecting" | "kicked" | "refused" | "closed";

/** Answers that another try would only repeat (not admitted, no such room): the client stops and shows them. */
const FINAL_CODES = new Set([Code.PermissionDenied, Code.NotFound, Code.InvalidArgument]);

/** Opens the join stream (StageService.Join); the signal ends it. */
export type JoinStream = (room: string, signal: AbortSignal) => AsyncIterable<JoinResponse>;

export interface StageConnectionOptions {
  room: string;
  join: JoinStream;
  onStage(stage: Stage): void;
  onChat?(event: ChatEvent): void;
  /** Something happened in the room (a skip, a seat taken or left, a kick): a system line for everyone. */
  onActivity?(activity: RoomActivity): void;
  onKicked?(kicked: Kicked): void;
  /** The join was refused for good (403 not admitted, 404 no such room): the error, with the server's message. */
  onRefused?(error: ConnectError): void;
  onStatus?(status: ConnectionStatus): void;
  /** A clock sample: the join was sent at t0, its first message (stamped serverMs) arrived at t1. */
  onClockSample?(t0: number, serverMs: number, t1: number): void;
  /** Why the client rejoins (tests, logs). */
  onRejoin?(reason: "gap" | "patch" | "reconnect" | "reset" | "resync"): void;
  log?(message: string, error?: unknown): void;
  /** A patch arrived (before it is checked or applied), with its version: the web room's benchmark probe. */
  onPatchArrived?(version: bigint): void;
  random?: () => number;
  now?: () => number;
  schedule?: (run: () => void, ms: number) => () => void;
}

export interface StageConnection {
  /** Joins (or rejoins now). */
  start(): void;
  /** The resync button: a fresh join, hence a fresh full state. */
  resync(): void;
  close(): void;
  /** The Stage's JSON form at the current version (tests). */
  json(): JsonValue | undefined;
}

/**
 * The next stage after a patch, sharing with the one before every part (room, seats, play, votes…) the patch did not
 * touch: the room's components redraw only on the parts they draw (a vote redraws the votes, not the booth).
 */
function sharedStage(before: Stage | undefined, after: Stage, operations: readonly Operation[]): Stage {
  const touched = new Set(operations.flatMap((op) => ("from" in op ? [op.path, op.from] : [op.path]).map(topField)));
  if (!before || touched.has("")) return after;
  for (const field of StageSchema.fields) {
    if (field.localName !== "version" && !touched.has(field.jsonName)) {
      (after as unknown as Record<string, unknown>)[field.localName] = before[field.localName as keyof Stage];
    }
  }
  return after;
}

/** The Stage field a JSON Pointer lies in ("/votes/byUser/x" → "votes"; "" for the whole document). */
const topField = (pointer: string) => pointer.split("/")[1] ?? "";

const defaultSchedule = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

export function createStageConnection(options: StageConnectionOptions): StageConnection {
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const schedule = options.schedule ?? defaultSchedule;
  // eslint-disable-next-line no-console
  const log = options.log ?? ((message: string, error?: unknown) => console.warn(message, error));
  let generation = 0;
  let abort: AbortController | undefined;
  let cancelTimer: (() => void) | undefined;
  let failures = 0;
  let json: JsonValue | undefined;
  let current: Stage | undefined;
  let version = -1n;
  let stopped = false;

  const status = (next: ConnectionStatus) => options.onStatus?.(next);

  const stopStream = () => {
    generation += 1;
    abort?.abort();
    abort = undefined;
    cancelTimer?.();
    cancelTimer = undefined;
  };

  const rejoin = (reason: Parameters<NonNullable<StageConnectionOptions["onRejoin"]>>[0], delayMs: number) => {
    stopStream();
    if (stopped) return;
    options.onRejoin?.(reason);
    status(reason === "reconnect" ? "reconnecting" : "connecting");
    const mine = generation;
    cancelTimer = schedule(() => {
      if (mine === generation && !stopped) void run();
    }, delayMs);
  };

  const reconnectDelay = () => {
    failures += 1;
    return Math.min(RECONNECT_MAX_DELAY_MS, 250 * 2 ** (failures - 1)) * (0.5 + random() / 2);
  };

  async function run() {
    stopStream();
    const mine = generation;
    const controller = new AbortController();
    abort = controller;
    json = undefined;
    version = -1n;
    const t0 = now();
    let first = true;
    try {
      for await (const message of options.join(options.room, controller.signal)) {
        if (mine !== generation) return;
        if (first && message.serverTime) options.onClockSample?.(t0, timestampMs(message.serverTime), now());
        first = false;
        const kind = message.kind;
        switch (kind.case) {
          case "state": {
            json = toJson(StageSchema, kind.value);
            current = kind.value;
            version = kind.value.version;
            failures = 0;
            status("live");
            options.onStage(kind.value);
            break;
          }
          case "patch": {
            options.onPatchArrived?.(kind.value.version);
            if (json === undefined) return rejoin("gap", 0);
            // An older or repeated patch changes nothing; a skipped version means the state is unknown.
            if (kind.value.version <= version) break;
            if (kind.value.version !== version + 1n) return rejoin("gap", 0);
            let next: JsonValue;
            let stage: Stage;
            try {
              const operations = JSON.parse(kind.value.operations) as Operation[];
              next = structuredClone(json);
              const failed = applyPatch(next, operations).find((result) => result !== null);
              if (failed) throw failed;
              stage = sharedStage(current, fromJson(StageSchema, next, { ignoreUnknownFields: true }), operations);
            } catch (error) {
              log(FAILED_PATCH_LOG, error);
              return rejoin("patch", 0);
            }
            json = next;
            current = stage;
            version = kind.value.version;
            options.onStage(stage);
            break;
          }
          case "chat":
            options.onChat?.(kind.value);
            break;
          case "activity":
            options.onActivity?.(kind.value);
            break;
          case "kicked":
            stopped = true;
            stopStream();
            status("kicked");
            options.onKicked?.(kind.value);
            return;
          case "reset":
            return rejoin("reset", random() * RESET_REJOIN_MAX_DELAY_MS);
        }
      }
      if (mine === generation) rejoin("reconnect", reconnectDelay());
    } catch (error) {
      if (mine !== generation || controller.signal.aborted) return;
      if (error instanceof ConnectError && FINAL_CODES.has(error.code)) {
        stopped = true;
        stopStream();
        status("refused");
        options.onRefused?.(error);
        return;
      }
      log("The room's join stream broke; rejoining", error);
      rejoin("reconnect", reconnectDelay());
    }
  }

  return {
    start() {
      stopped = false;
      status("connecting");
      void run();
    },
    resync() {
      if (stopped) return;
      rejoin("resync", 0);
    },
    close() {
      stopped = true;
      stopStream();
      status("closed");
    },
    json: () => json,
  };
}
