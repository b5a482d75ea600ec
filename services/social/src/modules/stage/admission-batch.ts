// Admissions of one room asked together (issue 29): the callers of a room whose admission is asked in one turn of the
// event loop (a burst of joins) go to the room service in one RoomService.AdmitManyToStage call, at most
// ADMISSION_BATCH_MAX each, instead of one AdmitToStage call each. While a call for the room is out, the callers of
// the next turns wait for its answer and go together in the next call (unless they fill one first): joins that
// arrive spread over time, as through a cluster's social processes, went in calls of five. Every caller gets its own
// answer: its roles, or its refusal as the ConnectError AdmitToStage would have thrown (code and message); when the
// call itself fails, every caller of it gets that error, so runtime.admit treats each as it treats a failed
// AdmitToStage.
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { codeFromString } from "@connectrpc/connect/protocol-connect";
import type { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";

/** The most callers one AdmitManyToStage call carries (the room service's bound). */
export const ADMISSION_BATCH_MAX = 100;

/** Who asks to enter: a signed-in user, or a guest (their token subject). */
export interface BatchCaller {
  user?: string;
  guest?: string;
}

interface Waiting {
  caller: BatchCaller;
  resolve(answer: { roles: string[] }): void;
  reject(err: unknown): void;
}

export class AdmissionBatches {
  /** The callers waiting for the next call, by room uuid. */
  private readonly pending = new Map<string, Waiting[]>();
  /** The calls out, by room uuid. */
  private readonly out = new Map<string, number>();

  constructor(private readonly rooms: Pick<Client<typeof RoomService>, "admitToStage" | "admitManyToStage">) {}

  /**
   * The caller's roles in the room, asked together with the room's other callers of this turn of the event loop.
   * Rejects with the caller's refusal, the call's error, or (the caller's signal aborted) a Canceled error.
   */
  admit(roomUuid: string, caller: BatchCaller, signal?: AbortSignal): Promise<{ roles: string[] }> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new ConnectError("The admission was cancelled", Code.Canceled));
        return;
      }
      const abort = () => reject(new ConnectError("The admission was cancelled", Code.Canceled));
      signal?.addEventListener("abort", abort, { once: true });
      const done = () => signal?.removeEventListener("abort", abort);
      let queue = this.pending.get(roomUuid);
      if (!queue) {
        const batch: Waiting[] = (queue = []);
        this.pending.set(roomUuid, batch);
        setImmediate(() => this.flush(roomUuid, batch, false));
      }
      queue.push({
        caller,
        resolve: (answer) => (done(), resolve(answer)),
        reject: (err) => (done(), reject(err)),
      });
      if (queue.length >= ADMISSION_BATCH_MAX) this.flush(roomUuid, queue, true);
    });
  }

  /**
   * Sends the room's waiting callers, unless this batch was sent already (it filled up) or (not `full`) a call for
   * the room is out: its answer sends them.
   */
  private flush(roomUuid: string, batch: Waiting[], full: boolean): void {
    if (this.pending.get(roomUuid) !== batch) return;
    if (!full && this.out.has(roomUuid)) return;
    this.pending.delete(roomUuid);
    this.out.set(roomUuid, (this.out.get(roomUuid) ?? 0) + 1);
    void this.send(roomUuid, batch).finally(() => {
      const left = this.out.get(roomUuid)! - 1;
      if (left > 0) {
        this.out.set(roomUuid, left);
        return;
      }
      this.out.delete(roomUuid);
      const next = this.pending.get(roomUuid);
      if (next) this.flush(roomUuid, next, false);
    });
  }

  private async send(roomUuid: string, batch: Waiting[]): Promise<void> {
    let admissions;
    try {
      ({ admissions } = await this.rooms.admitManyToStage({
        room: roomUuid,
        callers: batch.map(({ caller }) => ({
          userUuid: caller.user ?? "",
          guestSubject: caller.user ? "" : (caller.guest ?? ""),
        })),
      }));
    } catch (err) {
      // A room service that does not know the batch yet (a rolling update): each caller asks alone.
      if (ConnectError.from(err).code === Code.Unimplemented) {
        for (const w of batch) this.alone(roomUuid, w);
        return;
      }
      for (const w of batch) w.reject(err);
      return;
    }
    if (admissions.length !== batch.length) {
      const err = new ConnectError(
        `the room service answered ${admissions.length} admissions for ${batch.length} callers`,
        Code.Internal,
      );
      for (const w of batch) w.reject(err);
      return;
    }
    for (const [i, w] of batch.entries()) {
      const { roles, code, message } = admissions[i]!;
      if (code === "") w.resolve({ roles });
      else w.reject(new ConnectError(message, codeFromString(code) ?? Code.Unknown));
    }
  }

  private alone(roomUuid: string, w: Waiting): void {
    this.rooms
      .admitToStage({
        room: roomUuid,
        userUuid: w.caller.user ?? "",
        guestSubject: w.caller.user ? "" : (w.caller.guest ?? ""),
      })
      .then(w.resolve, w.reject);
  }
}
