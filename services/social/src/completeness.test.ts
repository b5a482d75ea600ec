// The social service is complete: every RPC of its services has an implementation (the host starts it), and every
// REST rule of its protos is routed by the gateway's own route table under /api/social-service.
import { describe, expect, it } from "vitest";
import { methodKey } from "@tt/kit";
import { createServiceHarness } from "@tt/kit/testing";
import { buildRouteTable } from "../../../gateway/src/routes.ts";
import { playlistServiceDefinition } from "@tt/playlist-service";
import { roomServiceDefinition } from "@tt/room-service";
import { userServiceDefinition } from "@tt/user-service";
import { SOCIAL_SERVICES, socialServiceDefinition } from "./index.ts";

const SAMPLE = "3f0e9b7e-8a3c-4f4e-9d55-0123456789ab";

/** The stage's REST rules (issue 14), as the room page and bots call them. */
const STAGE_OPERATIONS = [
  "GET /api/social-service/rooms/{room}/stage",
  "POST /api/social-service/rooms/{room}/seats",
  "DELETE /api/social-service/rooms/{room}/seats",
  "DELETE /api/social-service/rooms/{room}/seats/{user}",
  "POST /api/social-service/rooms/{room}/play/skip",
  "POST /api/social-service/rooms/{room}/play/moderator-skip",
  "POST /api/social-service/rooms/{room}/votes/like",
  "POST /api/social-service/rooms/{room}/votes/dislike",
  "POST /api/social-service/rooms/{room}/grabs",
  "PUT /api/social-service/rooms/{room}/vote-skip",
  "GET /api/social-service/rooms/{room}/listeners",
  "GET /api/social-service/clock",
];

describe("tt.social.v1 completeness", () => {
  it("implements every RPC of the protos (the host starts it)", async () => {
    const h = await createServiceHarness(socialServiceDefinition, {
      network: false,
      alongside: [userServiceDefinition, playlistServiceDefinition, roomServiceDefinition],
    });
    try {
      const missing = SOCIAL_SERVICES.flatMap((s) => s.methods)
        .filter((m) => !h.host.methods.has(methodKey(m)))
        .map((m) => m.name);
      expect(missing).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it("routes every stage operation through the gateway's route table", () => {
    const table = buildRouteTable([{ services: [...SOCIAL_SERVICES] }]);
    const missing: string[] = [];
    const wrongPlace: string[] = [];
    for (const op of STAGE_OPERATIONS) {
      const [verb, path] = op.split(" ") as [string, string];
      try {
        const match = table.match(verb, path.replace(/\{[^}]+\}/g, SAMPLE));
        if (match.variables.length !== [...path.matchAll(/\{[^}]+\}/g)].length) {
          wrongPlace.push(`${op} → ${match.value.pattern}`);
        }
      } catch {
        missing.push(op);
      }
    }
    expect(wrongPlace).toEqual([]);
    expect(missing).toEqual([]);
    expect(table.match("DELETE", `/api/social-service/rooms/${SAMPLE}/seats`).value.method.name).toBe("LeaveSeat");
  });
});
