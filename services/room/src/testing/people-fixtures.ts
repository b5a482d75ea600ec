// Test fixtures of the people part: users as token + uuid (real accounts of the user service running alongside,
// since the social graph names only real users), and rooms written straight through the rooms area's entities
// (the social tests need a room and its managers, not the rooms area's calls).
import { randomUUID } from "node:crypto";
import type { UserRole } from "@tt/kit";
import type { ServiceHarness } from "@tt/kit/testing";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { RoomUserRole } from "../modules/rooms/room-user-role.entity.ts";
import { Room } from "../modules/rooms/room.entity.ts";

export interface TestUser {
  id: string;
  token: string;
}

/** A new account (signed up with the user service); its token carries `role`. */
export async function testUser(h: ServiceHarness, role: UserRole = "user"): Promise<TestUser> {
  const signed = await h
    .client(AuthService)
    .signUp({ email: `${randomUUID()}@example.test`, password: "correct-horse-1" });
  const id = signed.user!.uuid;
  return { id, token: await h.tokens.user(role, id) };
}

/** A public room owned by `ownerId`, with `moderators` granted the moderator role. */
export async function seedRoom(h: ServiceHarness, ownerId: string, moderators: string[] = []): Promise<string> {
  const em = h.orm.em.fork();
  const id = randomUUID();
  em.create(Room, {
    id,
    slug: `room-${id.slice(0, 8)}`,
    name: `Room ${id.slice(0, 8)}`,
    ownerId,
    type: "PUBLIC",
    design: "CLUB",
    djType: "EVERYONE",
    numberOfDjs: 5,
    pinnedMessages: [],
    musicProviders: [],
  });
  for (const userId of moderators) em.create(RoomUserRole, { roomId: id, userId, role: "moderator" });
  await em.flush();
  return id;
}
