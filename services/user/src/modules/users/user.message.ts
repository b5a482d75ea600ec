import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { UserSchema as UserMessageSchema } from "@tt/proto/tt/user/v1/user_pb";
import type { User as UserMessage } from "@tt/proto/tt/user/v1/user_pb";
import type { User } from "./user.entity.ts";

/** The account as the API shows it (never the password hash). */
export function toUserMessage(user: User): UserMessage {
  return create(UserMessageSchema, {
    uuid: user.id,
    email: user.email,
    role: user.role,
    capabilities: [...user.capabilities],
    badges: [...user.badges],
    createdAt: timestampFromDate(user.createdAt),
    subscriptionLevel: user.subscriptionLevel ?? "",
  });
}
