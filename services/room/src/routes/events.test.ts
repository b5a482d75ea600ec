import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { EventService } from "@tt/proto/tt/room/v1/event_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { roomServiceDefinition } from "../index.ts";
import { refusal } from "../testing/refusal.ts";
import { seedRoom, testUser, type TestUser } from "../testing/people-fixtures.ts";

let h: ServiceHarness;
let admin: TestUser;
beforeAll(async () => {
  h = await createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition] });
  admin = await testUser(h, "admin");
});
afterAll(() => h?.close());

const as = (u: TestUser) => h.client(EventService, { token: u.token });
const at = (hoursFromNow: number) => timestampFromDate(new Date(Date.now() + hoursFromNow * 3600_000));

describe("events", () => {
  it("a user creates an event; anyone reads it by id and slug; only its creator or staff change it", async () => {
    const dj = await testUser(h);
    const other = await testUser(h);
    const room = await seedRoom(h, dj.id);
    const { event } = await as(dj).createEvent({
      name: "Friday Night Set",
      roomId: room,
      startsAt: at(1),
      endsAt: at(3),
    });
    expect(event).toMatchObject({ slug: "friday-night-set", roomId: room, createdBy: dj.id });
    const id = event!.id;
    await expect(as(other).getEventBySlug({ slug: "friday-night-set" })).resolves.toMatchObject({ event: { id } });
    await expect(as(other).getEvent({ id })).resolves.toMatchObject({ event: { name: "Friday Night Set" } });

    await refusal(as(other).updateEvent({ id, name: "mine now" }), Code.PermissionDenied, "Forbidden");
    await refusal(as(other).deleteEvent({ id }), Code.PermissionDenied);
    const updated = await as(dj).updateEvent({ id, name: "Saturday Set", slug: "saturday-set" });
    expect(updated.event).toMatchObject({ name: "Saturday Set", slug: "saturday-set" });
    await refusal(as(dj).updateEvent({ id, endsAt: at(0) }), Code.InvalidArgument, "endsAt must be after startsAt");
    await expect(as(admin).updateEvent({ id, description: "by staff" })).resolves.toBeDefined();

    await refusal(
      as(other).createEvent({ name: "x", roomId: room, startsAt: at(1), endsAt: at(2) }),
      Code.PermissionDenied,
    );
    await refusal(
      as(dj).createEvent({ name: "x", slug: "saturday-set", startsAt: at(1), endsAt: at(2) }),
      Code.AlreadyExists,
      "event slug already exists",
    );
    await refusal(
      as(dj).createEvent({ name: "x", startsAt: at(2), endsAt: at(1) }),
      Code.InvalidArgument,
      "endsAt must be after startsAt",
    );
    await refusal(as(dj).createEvent({ name: "x", endsAt: at(1) }), Code.InvalidArgument);

    await as(dj).deleteEvent({ id });
    await refusal(as(other).getEvent({ id }), Code.NotFound, "event not found");
  });

  it("upcoming lists events not ended yet, soonest first; admins list with the query language", async () => {
    const u = await testUser(h);
    const past = await as(u).createEvent({ name: "Past", startsAt: at(-5), endsAt: at(-4) });
    const later = await as(u).createEvent({ name: "Later", startsAt: at(10), endsAt: at(11) });
    const soon = await as(u).createEvent({ name: "Soon", startsAt: at(1), endsAt: at(2) });
    const upcoming = (await as(u).listUpcomingEvents({ limit: 100 })).events.map((e) => e.id);
    expect(upcoming).not.toContain(past.event!.id);
    expect(upcoming.indexOf(soon.event!.id)).toBeLessThan(upcoming.indexOf(later.event!.id));
    expect((await as(u).listEvents({ limit: 100 })).events.map((e) => e.id)).toContain(past.event!.id);

    const listed = await as(admin).adminListEvents({
      query: { filter: [`createdBy||$eq||${u.id}`], sort: ["startsAt,DESC"] },
    });
    expect(listed.data.map((e) => e.name)).toEqual(["Later", "Soon", "Past"]);
    await expect(as(admin).adminGetEvent({ id: soon.event!.id })).resolves.toMatchObject({ event: { name: "Soon" } });
    await refusal(as(u).adminListEvents({}), Code.Unauthenticated);
  });
});
