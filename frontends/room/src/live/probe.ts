// What the room page announces for its benchmark (npm run bench:room-page, issue 25 "fast with a full room"): a stage
// patch arrived on the join stream, and the room committed a stage to the DOM, each with the stage's version, as
// window events. Nothing in the app listens; the bench's page script does, and times each patch's arrival to the
// paint after its commit. An event nobody listens to costs about a microsecond and keeps nothing.
export const STAGE_PATCH_EVENT = "tt:stage-patch";
export const STAGE_COMMIT_EVENT = "tt:stage-commit";

export function announceStage(event: typeof STAGE_PATCH_EVENT | typeof STAGE_COMMIT_EVENT, version: bigint): void {
  if (typeof window === "undefined") return;
  window.dispatchEvent(new CustomEvent(event, { detail: Number(version) }));
}
