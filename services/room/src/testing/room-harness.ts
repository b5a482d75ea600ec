// The room service on the kit's harness with the user service alongside (it answers who a user is), and helpers
// the routes tests share: real accounts, their tokens, a room made by its owner.
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import type { Room } from "@tt/proto/tt/room/v1/room_pb";
import { userServiceDefinition } from "@tt/user-service";
import { signUpAccount, type TestAccount } from "@tt/user-service/testing/sign-up";
import { randomUUID } from "node:crypto";
import { roomServiceDefinition } from "../index.ts";

export type Account = TestAccount;

export async function startRoomHarness(env: Record<string, string> = {}): Promise<ServiceHarness> {
  return createServiceHarness(roomServiceDefinition, { alongside: [userServiceDefinition], env });
}

/** A real account (the user service knows it) and a token for it with the given role. */
export const account = signUpAccount;

/** A room created by `owner`. */
export async function roomOf(h: ServiceHarness, owner: Account, init: Record<string, unknown> = {}): Promise<Room> {
  const res = await h.client(RoomService, { token: owner.token }).createRoom({ name: `Room ${randomUUID()}`, ...init });
  return res.room!;
}
