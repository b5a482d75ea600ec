// Key-value buckets one service writes and another reads (each a published read model, not a service's own table).

/**
 * The social service's live summary of each room that has had a stage with listeners or a song: the binary
 * tt.room.v1.RoomLive by room uuid, written on change at most once a second per room; the room service's lists read
 * it (docs/decisions/0331-the-live-directory-cards-live-data-and-the-lists.md).
 */
export const ROOM_LIVE_BUCKET = "tt-room-live";
