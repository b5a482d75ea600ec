import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import type { SocialContext } from "../context.ts";

const notYet = () => {
  throw new ConnectError("the live stage is not available yet", Code.Unimplemented);
};

/** The live stage's RPCs. */
export function stageRoutes(_svc: SocialContext): ServiceImpl<typeof StageService> {
  return {
    // eslint-disable-next-line require-yield
    async *join() {
      notYet();
    },
    getStage: notYet,
    takeSeat: notYet,
    leaveSeat: notYet,
    removeFromSeat: notYet,
    skipSong: notYet,
    moderatorSkip: notYet,
    like: notYet,
    dislike: notYet,
    grab: notYet,
    setVoteSkip: notYet,
    listListeners: notYet,
    getClock(req) {
      const receiveTime = timestampFromDate(new Date());
      return { clientTime: req.clientTime, receiveTime, sendTime: timestampFromDate(new Date()) };
    },
  };
}
