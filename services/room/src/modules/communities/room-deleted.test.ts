// A deleted room's community links and event rooms go, through the RoomDeleted event on the real bus.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishEvent } from "@tt/kit";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { RoomDeletedSchema } from "@tt/proto/tt/room/v1/events_pb";
import { userServiceDefinition } from "@tt/user-service";
import { roomServiceDefinition } from "../../index.ts";
import { RoomEvent } from "../events/room-event.entity.ts";
import { CommunityRoom } from "./community-room.entity.ts";
import { Community } from "./community.entity.ts";

let h: ServiceHarness;
beforeAll(async () => {
  h = await createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition] });
});
afterAll(() => h?.close());

describe("a deleted room", () => {
  it("leaves its communities and its events", async () => {
    const roomId = randomUUID();
    const other = randomUUID();
    const em = h.orm.em.fork();
    const community = em.create(Community, { name: "C", slug: `c-${roomId.slice(0, 8)}`, ownerId: randomUUID() });
    em.create(CommunityRoom, { communityId: community.id, roomId });
    em.create(CommunityRoom, { communityId: community.id, roomId: other });
    const event = em.create(RoomEvent, {
      slug: `e-${roomId.slice(0, 8)}`,
      name: "E",
      roomId,
      startsAt: new Date(),
      endsAt: new Date(Date.now() + 3600_000),
      createdBy: randomUUID(),
    });
    await em.flush();

    await h.orm.em.fork().transactional(async (tx) => {
      publishEvent(tx, RoomDeletedSchema, { roomUuid: roomId, slug: "gone" });
    });
    await expect.poll(() => h.orm.em.fork().count(CommunityRoom, { roomId }), { timeout: 10_000 }).toBe(0);
    expect(await h.orm.em.fork().count(CommunityRoom, { roomId: other })).toBe(1);
    await expect
      .poll(async () => (await h.orm.em.fork().findOneOrFail(RoomEvent, { id: event.id })).roomId, { timeout: 10_000 })
      .toBeNull();
  });
});
