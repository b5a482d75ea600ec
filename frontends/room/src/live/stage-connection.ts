// The room's side of the join stream: the rules (full state, patches, rejoins on gaps, resets and reconnects) live
// in the bot kit's stage connection, which bots follow too; the room adds its benchmark probe on each patch.
import {
  createStageConnection as createSharedStageConnection,
  type StageConnection,
  type StageConnectionOptions,
} from "@tt/bot/stage-connection";
import { announceStage, STAGE_PATCH_EVENT } from "./probe.ts";

export * from "@tt/bot/stage-connection";

export function createStageConnection(options: StageConnectionOptions): StageConnection {
  return createSharedStageConnection({
    onPatchArrived: (version) => announceStage(STAGE_PATCH_EVENT, version),
    ...options,
  });
}
