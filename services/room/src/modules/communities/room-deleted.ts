// A deleted room leaves no trace in the people part: its community links go and events that were in it keep
// their date but no longer name it. The rooms area announces the deletion (RoomDeleted); this consumer runs once
// per event, its writes committed with the processed mark.
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import { type Bus, consumeEvents, deploymentDurable, type Subscription } from "@tt/kit";
import { RoomDeletedSchema } from "@tt/proto/tt/room/v1/events_pb";
import { RoomEvent } from "../events/room-event.entity.ts";
import { CommunityRoom } from "./community-room.entity.ts";

export async function forgetRoom(em: EntityManager, roomId: string): Promise<void> {
  await em.nativeDelete(CommunityRoom, { roomId });
  await em.nativeUpdate(RoomEvent, { roomId }, { roomId: null });
}

/**
 * The durable consumer belongs to this deployment's database: every replica of one deployment shares it, and
 * two deployments on one NATS (test runs) never take each other's events.
 */
export function roomDeletedDurable(orm: MikroORM): string {
  return deploymentDurable(orm, "room-social-room-deleted", { hashChars: 10 });
}

export function consumeRoomDeleted(bus: Bus, orm: MikroORM, logger: Logger): Promise<Subscription> {
  return consumeEvents(
    bus,
    RoomDeletedSchema,
    async (event, ctx) => {
      if (/^[0-9a-f-]{36}$/i.test(event.roomUuid)) await forgetRoom(ctx.em, event.roomUuid.toLowerCase());
    },
    { durable: roomDeletedDurable(orm), orm, logger },
  );
}
