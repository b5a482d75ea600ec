// ChatEvents on core NATS after the commit (issue 14 contract): a room's chat on its room subject, a direct
// message on both people's user subjects, a user's own changes on theirs. A lost publish loses no message (it is
// stored), and a room's reader learns of it: each room change carries the room's chat sequence, and the join
// stream says where the room's chat is when its events fell behind the store (stage/hub.ts), so the client loads
// the history again (issue 28). No retry here: while NATS reconnects the client library takes a publish without
// error and drops it on reconnecting, so a failed publish cannot even be seen.
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
