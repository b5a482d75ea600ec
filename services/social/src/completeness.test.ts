// The social service is complete: every RPC of its services has an implementation (the host starts it), and every
// REST rule of its protos is routed by the gateway's own route table under /api/social-service.
import { describe, expect, it } from "vitest";
import { expectEveryOperationRouted, expectEveryRpcImplemented, SAMPLE_UUID } from "@tt/kit/testing";
import { buildRouteTable } from "@tt/gateway/routes";
import { playlistServiceDefinition } from "@tt/playlist-service";
import { roomServiceDefinition } from "@tt/room-service";
import { userServiceDefinition } from "@tt/user-service";
import { SOCIAL_SERVICES, socialServiceDefinition } from "./index.ts";

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
    await expectEveryRpcImplemented(socialServiceDefinition, {
      services: SOCIAL_SERVICES,
      alongside: [userServiceDefinition, playlistServiceDefinition, roomServiceDefinition],
    });
  });

  it("routes every stage operation through the gateway's route table", () => {
    const table = buildRouteTable([{ services: [...SOCIAL_SERVICES] }]);
    expectEveryOperationRouted(table, STAGE_OPERATIONS);
    expect(table.match("DELETE", `/api/social-service/rooms/${SAMPLE_UUID}/seats`).value.method.name).toBe("LeaveSeat");
  });
});
