// PresenceService (proto/tt/social/v1/presence_service.proto): the stage's answers to the room service's live
// questions. Reads only: the stage (key-value store) for counts, DJs and the play, the presence entries for the
// listener list, the played-time table for the seconds of ended plays. Asking never creates a stage.
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { callEm, checkLimit, checkUuid } from "@tt/kit";
import type { PresenceService } from "@tt/proto/tt/social/v1/presence_service_pb";
import type { Stage } from "@tt/proto/tt/social/v1/stage_pb";
import type { SocialContext } from "../context.ts";
import { endedSecondsOf, totalEndedSeconds } from "../modules/presence/played-time.ts";

const LISTENERS_PAGE = 100;
const LISTENERS_MAX = 500;
const MAX_ROOMS = 200;

/** Seconds the play has run so far (at most its duration when known). */
export function runningSeconds(stage: Stage | undefined, now = Date.now()): number {
  const play = stage?.play;
  if (!play?.startedAt) return 0;
  const elapsed = Math.max(0, (now - timestampDate(play.startedAt).getTime()) / 1000);
  return play.duration > 0 ? Math.min(elapsed, play.duration) : elapsed;
}

export function presenceRoutes(svc: SocialContext): ServiceImpl<typeof PresenceService> {
  const read = async (roomUuid: string) => (await svc.stage.store.read(roomUuid))?.stage;

  return {
    async getRoomPresence(req, ctx) {
      const roomUuid = checkUuid(req.roomUuid, "roomUuid").toLowerCase();
      const [stage, ended] = await Promise.all([read(roomUuid), endedSecondsOf(callEm(ctx), roomUuid)]);
      const play = stage?.play;
      return {
        presence: {
          roomUuid,
          hasStage: stage !== undefined,
          version: stage?.version ?? 0n,
          users: stage?.listeners?.users ?? 0,
          guests: stage?.listeners?.guests ?? 0,
          djUuids: stage?.seats.map((s) => s.userUuid) ?? [],
          ...(play
            ? {
                play: {
                  playId: play.playId,
                  djUuid: play.djUuid,
                  title: play.song?.trackName ?? "",
                  artist: play.song?.artistName ?? "",
                  startedAt: play.startedAt,
                  duration: play.duration,
                  uploadSongId: play.song?.musicProviders["uploadService"] ?? "",
                },
              }
            : {}),
          playedSeconds: BigInt(Math.floor(ended + runningSeconds(stage))),
        },
      };
    },

    async getRoomsPresence(req) {
      if (req.roomUuids.length > MAX_ROOMS) {
        throw new ConnectError(`roomUuids must hold at most ${MAX_ROOMS} rooms`, Code.InvalidArgument);
      }
      const uuids = [...new Set(req.roomUuids.map((u, i) => checkUuid(u, `roomUuids[${i}]`).toLowerCase()))];
      const stages = await Promise.all(uuids.map(read));
      return {
        rooms: uuids.map((roomUuid, i) => ({
          roomUuid,
          users: stages[i]?.listeners?.users ?? 0,
          guests: stages[i]?.listeners?.guests ?? 0,
          playing: stages[i]?.play !== undefined,
        })),
      };
    },

    async listRoomListeners(req) {
      const roomUuid = checkUuid(req.roomUuid, "roomUuid").toLowerCase();
      const limit = checkLimit(req.limit, LISTENERS_PAGE, LISTENERS_MAX);
      const presence = await svc.stage.listeners(roomUuid);
      return {
        listeners: presence.users
          .slice(req.offset, req.offset + limit)
          .map((l) => ({ userUuid: l.user, joinedAt: timestampFromDate(new Date(l.joinedAt)) })),
        total: presence.users.length,
        guests: presence.guests,
      };
    },

    async getPlayedSeconds(_req, ctx) {
      return { playedSeconds: BigInt(Math.floor(await totalEndedSeconds(callEm(ctx)))) };
    },
  };
}
