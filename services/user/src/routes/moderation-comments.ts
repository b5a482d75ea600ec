// Notes moderators keep about a user; only the moderator group reads or writes them.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { ModerationCommentSchema as ModerationCommentMessageSchema } from "@tt/proto/tt/user/v1/moderation_pb";
import type { ModerationComment as ModerationCommentMessage } from "@tt/proto/tt/user/v1/moderation_pb";
import type { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { ModerationComment } from "../modules/moderation/moderation-comment.entity.ts";
import { loadCaller, loadTarget, MODERATOR_GROUP } from "./moderation-access.ts";

export const COMMENT_MAX_LENGTH = 2000;
export const COMMENT_EMPTY = "comment must not be empty";
export const COMMENT_TOO_LONG = `comment must be at most ${COMMENT_MAX_LENGTH} characters`;

function toMessage(comment: ModerationComment): ModerationCommentMessage {
  return create(ModerationCommentMessageSchema, {
    id: comment.id,
    userUuid: comment.user.id,
    authorUuid: comment.authorId,
    comment: comment.comment,
    createdAt: timestampFromDate(comment.createdAt),
  });
}

export function moderationCommentRoutes(): Partial<ServiceImpl<typeof ModerationService>> {
  return {
    async createModerationComment(req, ctx) {
      // Kept as written (line breaks included); only surrounding blanks go.
      const text = req.comment.trim();
      if (text === "") throw new ConnectError(COMMENT_EMPTY, Code.InvalidArgument);
      if ([...text].length > COMMENT_MAX_LENGTH) throw new ConnectError(COMMENT_TOO_LONG, Code.InvalidArgument);
      const { em, caller } = await loadCaller(ctx, MODERATOR_GROUP);
      const target = await loadTarget(em, req.userUuid);
      const comment = em.create(ModerationComment, {
        user: target,
        authorId: caller.id,
        comment: text,
        createdAt: new Date(),
      });
      await em.flush();
      return { comment: toMessage(comment) };
    },

    async listModerationComments(req, ctx) {
      const { em } = await loadCaller(ctx, MODERATOR_GROUP);
      const target = await loadTarget(em, req.id);
      // The id breaks ties between notes written in the same millisecond, so the order is stable.
      const comments = await em.find(
        ModerationComment,
        { user: target.id },
        { orderBy: [{ createdAt: "desc" }, { id: "desc" }] },
      );
      return { comments: comments.map(toMessage) };
    },
  };
}
