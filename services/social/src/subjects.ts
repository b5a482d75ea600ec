// The social service's ephemeral core-NATS subjects. They live under `live.social.`, outside `tt.social.>`: the
// outbox stream TT_SOCIAL captures every subject under tt.social.> and would store each patch and chat fan-out
// (docs/decisions.md, issue 14). Durable events (tt.social.song.*) go through the outbox, never here.

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
