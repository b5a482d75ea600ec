// The social service's ephemeral core-NATS subjects. They live under `live.social.`, outside `tt.social.>`: the
// outbox stream TT_SOCIAL captures every subject under tt.social.> and would store each patch and chat fan-out
// (docs/decisions/0195-ephemeral-subjects-live-outside-tt-social.md). Durable events (tt.social.song.*) go through the
// outbox, never here.

/** A room's stage patches (binary StagePatchEnvelope JSON), to every instance with listeners of the room. */
export function stagePatchSubject(roomUuid: string): string {
  return `live.social.stage.${roomUuid}`;
}

/** A room's chat events (protobuf ChatEvent), forwarded by the join streams of the room. */
export function chatRoomSubject(roomUuid: string): string {
  return `live.social.chat.room.${roomUuid}`;
}

/** One user's chat events (direct messages, their own report/hide changes), forwarded by their join streams. */
export function chatUserSubject(userUuid: string): string {
  return `live.social.chat.user.${userUuid}`;
}

/** A user blocked someone or ended a block (JSON {blocked, on}): their join streams leave that sender's chat out. */
export function blocksSubject(userUuid: string): string {
  return `live.social.blocks.${userUuid}`;
}

/** A kick or ban of one user from a room (JSON {user, until?, by, reason}): their join streams get `kicked` and end. */
export function kickSubject(roomUuid: string): string {
  return `live.social.kick.${roomUuid}`;
}

/** Something happened in a room (protobuf RoomActivity: a skip, a seat taken or left, a kick): to every join stream. */
export function activitySubject(roomUuid: string): string {
  return `live.social.activity.${roomUuid}`;
}

/** A room's stage started over (the room was deleted): every join stream gets `reset` and ends. */
export function resetSubject(roomUuid: string): string {
  return `live.social.reset.${roomUuid}`;
}

/** An instance's listeners of a room changed: the room's lease holder reconciles the presence. */
export function presenceSubject(roomUuid: string): string {
  return `live.social.presence.${roomUuid}`;
}
