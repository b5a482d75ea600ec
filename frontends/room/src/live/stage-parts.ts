import type { Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { memo, type FunctionComponent } from "react";

/** The parts of the stage a component draws (its `stage` prop reads no other: the type says so). */
export type StageParts<K extends keyof Stage> = Pick<Stage, K>;

/**
 * A component of the room that draws some parts of the stage, redrawn only when one of them or another prop changes.
 * A stage patch keeps by reference every part it did not touch (stage-connection.ts), so a vote redraws what shows
 * votes and not the booth; a full room changes its stage many times a second.
 */
export function memoOnStage<K extends keyof Stage, P extends { stage: StageParts<K> }>(
  parts: readonly K[],
  component: FunctionComponent<P>,
) {
  return memo(component, (before, after) => {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof P>) {
      if (key !== "stage" && !Object.is(before[key], after[key])) return false;
    }
    return parts.every((part) => Object.is(before.stage[part], after.stage[part]));
  });
}
