// The stages in the JetStream key-value bucket: one key per room uuid holding the binary Stage, changed only by
// compare-and-set on the key's revision. A conflict (another instance changed the room meanwhile) re-reads and
// re-applies the action, so an action is applied exactly once to the stage it was checked against. Each stored
// change is published as its patch on live.social.stage.<roomUuid> to every instance with listeners of the room, and
// its live summary goes to the directory's bucket (live-summary.ts).
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { KvConflictError, type Bus, type KvBucket } from "@tt/kit";
import { StagePatchSchema, StageSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { stagePatchSubject } from "../../subjects.ts";
import {
  applyAction,
  initialStage,
  stagePatch,
  type RoomSettings,
  type StageAction,
  type StageResult,
} from "./domain.ts";
import type { LiveSummaries } from "./live-summary.ts";

/** Compare-and-set attempts before an action gives up (503): only under a storm of changes to one room. */
const MAX_ATTEMPTS = 64;

export class StageStore {
  private constructor(
    private readonly bus: Bus,
    private readonly kv: KvBucket,
    private readonly summaries?: LiveSummaries,
  ) {}

  /** The stages of `bucket`; with `summaries`, each stored change's live summary is written there. */
  static async open(bus: Bus, bucket: string, summaries?: LiveSummaries): Promise<StageStore> {
    return new StageStore(bus, await bus.kv(bucket), summaries);
  }

  /** The room's stage and its revision, or null when the room has none yet. */
  async read(roomUuid: string): Promise<{ stage: Stage; revision: number } | null> {
    const entry = await this.kv.get(roomUuid);
    if (!entry || entry.operation !== "PUT") return null;
    return { stage: fromBinary(StageSchema, entry.value), revision: entry.revision };
  }

  /** The room's stage, created (version 0) from its settings when it has none. */
  async ensure(roomUuid: string, settings: () => Promise<RoomSettings>): Promise<Stage> {
    for (;;) {
      const current = await this.read(roomUuid);
      if (current) return current.stage;
      const stage = initialStage(await settings());
      try {
        await this.kv.create(roomUuid, toBinary(StageSchema, stage));
        return stage;
      } catch (err) {
        if (!(err instanceof KvConflictError)) throw err;
      }
    }
  }

  /**
   * Applies an action by compare-and-set (re-reading on a conflict) and publishes the patch. The action may be a
   * function of the current stage. A room without a stage is a 404, or with `settings` gets its stage first (ensure),
   * so an action reads the bucket once when the stage exists.
   */
  async apply(
    roomUuid: string,
    action: StageAction | ((stage: Stage) => StageAction | null),
    opts: { now?: () => Date; settings?: () => Promise<RoomSettings> } = {},
  ): Promise<StageResult & { before: Stage | null }> {
    const now = opts.now ?? (() => new Date());
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.read(roomUuid);
      if (!current) {
        if (!opts.settings) throw new ConnectError("Room not found", Code.NotFound);
        await this.ensure(roomUuid, opts.settings);
        continue;
      }
      const concrete = typeof action === "function" ? action(current.stage) : action;
      if (!concrete) return { stage: current.stage, changed: false, effects: [], before: current.stage };
      const result = applyAction(current.stage, concrete, now());
      if (!result.changed) return { ...result, before: current.stage };
      try {
        await this.kv.update(roomUuid, toBinary(StageSchema, result.stage), current.revision);
      } catch (err) {
        if (err instanceof KvConflictError) continue;
        throw err;
      }
      await this.publishPatch(roomUuid, current.stage, result.stage);
      this.summaries?.changed(roomUuid, result.stage);
      return { ...result, before: current.stage };
    }
    throw new ConnectError("The stage is busy, try again", Code.Unavailable);
  }

  /** Every room's stage (a scan of the bucket: the live-rooms list reads it at most once every few seconds). */
  async all(): Promise<Stage[]> {
    const stages = await Promise.all((await this.kv.keys()).map(async (key) => (await this.read(key))?.stage));
    return stages.filter((stage) => stage !== undefined);
  }

  /** Removes a room's stage (the room was deleted). */
  async remove(roomUuid: string): Promise<void> {
    await this.kv.delete(roomUuid);
    await this.summaries?.removed(roomUuid);
  }

  /** Stops the summaries' pending writes. */
  close(): void {
    this.summaries?.close();
  }

  private async publishPatch(roomUuid: string, before: Stage, after: Stage): Promise<void> {
    const patch = create(StagePatchSchema, {
      version: after.version,
      operations: JSON.stringify(stagePatch(before, after)),
    });
    await this.bus.publish(stagePatchSubject(roomUuid), toBinary(StagePatchSchema, patch));
  }
}
