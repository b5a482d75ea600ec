// The room service on the kit's harness with the user service alongside (it answers who a user is), and helpers
// the routes tests share: real accounts, their tokens, a room made by its owner.
import type { UserRole } from "@tt/kit";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import type { Room } from "@tt/proto/tt/room/v1/room_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { randomUUID } from "node:crypto";
import { roomServiceDefinition } from "../index.ts";

export interface Account {
  uuid: string;
  token: string;
}

export async function startRoomHarness(env: Record<string, string> = {}): Promise<ServiceHarness> {
  return createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition], env });
}

/** A real account (the user service knows it) and a token for it with the given role. */
export async function account(h: ServiceHarness, role: UserRole = "user"): Promise<Account> {
  const res = await h
    .client(AuthService)
    .signUp({ email: `${randomUUID()}@example.test`, password: "a-long-password-1" });
  const uuid = res.user!.uuid;
  return { uuid, token: await h.tokens.user(role, uuid) };
}

/** A room created by `owner`. */
export async function roomOf(h: ServiceHarness, owner: Account, init: Record<string, unknown> = {}): Promise<Room> {
  const res = await h.client(RoomService, { token: owner.token }).createRoom({ name: `Room ${randomUUID()}`, ...init });
  return res.room!;
}
