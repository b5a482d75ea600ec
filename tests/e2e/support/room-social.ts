// Helpers of the room service's social e2e suites: the REST prefix, users, rooms made through the rooms area's own
// REST call, and a check of a refusal's status and message.
import { expect } from "vitest";
import type { Answer, TestPlatform } from "./platform.ts";

/** `/api/room-service` + path. */
export const r = (path: string) => `/api/room-service${path}`;

export interface E2eUser {
  id: string;
  token: string;
}

export async function user(platform: TestPlatform): Promise<E2eUser> {
  const { user, token } = await platform.signUp();
  return { id: user.uuid, token };
}

/** A public room of `owner`, made as a user makes one (POST /rooms/infrastructure). */
export async function room(
  platform: TestPlatform,
  owner: E2eUser,
  name = `Room ${Math.random().toString(36).slice(2, 8)}`,
) {
  const res = await platform.call("POST", r("/rooms/infrastructure"), { token: owner.token, body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.room as { uuid: string }).uuid;
}

export function expectStatus(res: Answer, status: number, message?: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (message !== undefined) expect(res.body.message).toBe(message);
}
