import { defineEntity, p } from "@mikro-orm/core";

/**
 * The seconds of songs played in a room: the sum of its ended plays (SongPlayed), kept once per play id. The play
 * running now is added from the stage when asked.
 */
export const RoomPlayedTimeSchema = defineEntity({
  name: "RoomPlayedTime",
  tableName: "room_played_time",
  properties: {
    roomUuid: p.uuid().primary(),
    playedSeconds: p.double(),
    plays: p.integer(),
    updatedAt: p.datetime(),
  },
});

export class RoomPlayedTime extends RoomPlayedTimeSchema.class {}
RoomPlayedTimeSchema.setClass(RoomPlayedTime);
