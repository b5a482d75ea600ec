// ChatEvents on core NATS after the commit (issue 14 contract): a room's chat on its room subject, a direct
// message on both people's user subjects, a user's own changes on theirs. A lost publish loses no message: a
// client that rejoins loads the history again.
import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import type { Bus } from "@tt/kit";
import { ChatEventSchema } from "@tt/proto/tt/social/v1/chat_pb";
import type { Logger } from "pino";
import { chatRoomSubject, chatUserSubject } from "../../subjects.ts";

export type ChatEventInit = MessageInitShape<typeof ChatEventSchema>;

export interface ChatPublisher {
  toRoom(roomUuid: string, event: ChatEventInit): Promise<void>;
  toUsers(userUuids: string[], event: ChatEventInit): Promise<void>;
}

export function createChatPublisher(bus: Bus, logger: Logger): ChatPublisher {
  const send = async (subjects: string[], event: ChatEventInit) => {
    const data = toBinary(ChatEventSchema, create(ChatEventSchema, event));
    await Promise.all(
      subjects.map((s) =>
        bus.publish(s, data).catch((err: unknown) => logger.warn({ err, subject: s }, "chat event not published")),
      ),
    );
  };
  return {
    toRoom: (roomUuid, event) => send([chatRoomSubject(roomUuid)], event),
    toUsers: (users, event) => send([...new Set(users)].map(chatUserSubject), event),
  };
}
