// The chat's event consumers (each once per event, docs/new-service.md §10):
// - merch's ConsumablePurchased with a room uuid: the room's chat shows the consumable (a "room" message);
// - the room service's RoomConversationCleared (DELETE /rooms/conversation/{id}): the room's messages up to then go;
// - the room service's UserBlocked / UserUnblocked: who blocked whom, for direct messages and room history.
// A handler writes in the event's own transaction (ctx.em, beside the processed-event mark): a write on a second
// connection while the mark's transaction holds the first could wait for good on a small pool once several consumers
// replay at once. The announcement goes out after that commit (ctx.afterCommit): it carries the room's chat sequence
// its change took, which a rolled-back attempt gives back (issue 28); the redelivery writes and announces again.
import { createHash } from "node:crypto";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { MikroORM } from "@mikro-orm/postgresql";
import { type Bus, consumeEvents, type EventContext, type Subscription } from "@tt/kit";
import { ConsumablePurchasedSchema } from "@tt/proto/tt/merch/v1/events_pb";
import { RoomConversationClearedSchema, UserBlockedSchema, UserUnblockedSchema } from "@tt/proto/tt/room/v1/events_pb";
import type { Logger } from "pino";
import { blocksSubject } from "../../subjects.ts";
import { clearRoom, insertMessage, setBlocked, toChatMessage } from "./chat-store.ts";
import type { ChatContent } from "./entities.ts";
import type { ChatPublisher } from "./publish.ts";
import type { ChatRelations } from "./relations.ts";

export interface ChatConsumerContext {
  bus: Bus;
  orm: MikroORM;
  logger: Logger;
  relations: ChatRelations;
  publisher: ChatPublisher;
  /** Prefix of the durable consumers' names (one deployment's replicas share them). */
  durable: string;
}

/** A stable uuid (version 5 layout) for a name: the same purchase always makes the same message. */
export function nameUuid(name: string): string {
  const h = createHash("sha1").update(`tt.social.chat:${name}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function startChatConsumers(c: ChatConsumerContext): Promise<{ unsubscribe(): Promise<void> }> {
  const opts = (name: string) => ({ durable: `${c.durable}-${name}`, orm: c.orm, logger: c.logger });
  /** Stores a block (or its end) and tells the user's join streams on every instance, which keep their own set. */
  const block = async (em: EventContext["em"], user: string, blocked: string, on: boolean) => {
    await setBlocked(em, user, blocked, on);
    await c.bus.publish(blocksSubject(user), new TextEncoder().encode(JSON.stringify({ blocked, on })));
  };
  const subs: Subscription[] = [
    await consumeEvents(
      c.bus,
      ConsumablePurchasedSchema,
      async (event, ctx) => {
        if (!UUID.test(event.roomUuid) || !UUID.test(event.userUuid)) return;
        const roomUuid = event.roomUuid.toLowerCase();
        const buyer = event.userUuid.toLowerCase();
        const profile = await c.relations.profile(buyer).catch(() => undefined);
        const content: ChatContent = {
          consumable: {
            id: event.consumableId,
            name: event.consumableName,
            tokenCost: event.tokenCost,
            fileUrl: event.fileUrl,
            purchaseId: event.purchaseId,
          },
        };
        if (profile) {
          content.userName = profile.nickname;
          content.avatarId = profile.avatarId;
          content.color = profile.color;
        }
        const { row, created, sequence } = await insertMessage(ctx.em, {
          uuid: nameUuid(`consumable:${event.purchaseId}`),
          roomUuid,
          senderUuid: buyer,
          type: "room",
          text: "",
          plain: false,
          content,
        });
        if (created) {
          const value = toChatMessage(row);
          ctx.afterCommit(() => c.publisher.toRoom(roomUuid, { sequence, kind: { case: "created", value } }));
        }
      },
      opts("consumables"),
    ),
    await consumeEvents(
      c.bus,
      RoomConversationClearedSchema,
      async (event, ctx) => {
        if (!UUID.test(event.roomUuid)) return;
        const roomUuid = event.roomUuid.toLowerCase();
        const at = event.clearedAt ? timestampDate(event.clearedAt) : new Date();
        const { sequence } = await clearRoom(ctx.em, roomUuid, at);
        ctx.afterCommit(() =>
          c.publisher.toRoom(roomUuid, {
            sequence,
            kind: {
              case: "cleared",
              value: { roomUuid, clearedBy: event.clearedBy, clearedAt: timestampFromDate(at) },
            },
          }),
        );
      },
      opts("cleared"),
    ),
    await consumeEvents(
      c.bus,
      UserBlockedSchema,
      async (event, ctx) => {
        if (!UUID.test(event.userUuid) || !UUID.test(event.blockedUserUuid)) return;
        await block(ctx.em, event.userUuid.toLowerCase(), event.blockedUserUuid.toLowerCase(), true);
      },
      opts("blocked"),
    ),
    await consumeEvents(
      c.bus,
      UserUnblockedSchema,
      async (event, ctx) => {
        if (!UUID.test(event.userUuid) || !UUID.test(event.blockedUserUuid)) return;
        await block(ctx.em, event.userUuid.toLowerCase(), event.blockedUserUuid.toLowerCase(), false);
      },
      opts("unblocked"),
    ),
  ];
  return {
    async unsubscribe() {
      await Promise.all(subs.map((s) => s.unsubscribe()));
    },
  };
}
