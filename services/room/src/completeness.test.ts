// Every /api/room-service row of the specification's operations.tsv (except the songs and uploads rows, which the
// upload service serves) is a REST rule of an RPC the room service declares, and the host implements every RPC of
// its protos (it refuses to start otherwise, so starting it is that check).
import { readFileSync } from "node:fs";
import { getOption } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { expectEveryRpcImplemented } from "@tt/kit/testing";
import { http } from "@tt/proto/google/api/annotations_pb";
import { userServiceDefinition } from "@tt/user-service";
import { ROOM_SERVICES, roomServiceDefinition } from "./index.ts";

const OPERATIONS = new URL("../../../../shared/spec/operations.tsv", import.meta.url);
/** The "Songs and uploads" rows: the upload service's. */
const SONG_ROWS = /^\/api\/room-service\/(search|metadata|songs|upload)(\/|$)/;
/** The areas this part of the room service owns; the people part owns the rest. */
const ROOM_AREAS = new Set(["rooms", "room-user-roles", "info"]);
const ROOM_ADMIN = /^\/api\/room-service\/(admin\/(rooms|djs)|rooms\/)/;

const norm = (path: string) => {
  const p = path.replace(/\{[^}]*\}/g, "{}");
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
};

interface Row {
  method: string;
  path: string;
  area: string;
}

function rows(): Row[] {
  return readFileSync(OPERATIONS, "utf8")
    .split("\n")
    .slice(1)
    .filter(Boolean)
    .map((line) => {
      const [method = "", path = "", , area = ""] = line.split("\t");
      return { method, path, area };
    })
    .filter((r) => r.path.startsWith("/api/room-service") && !SONG_ROWS.test(r.path));
}

/** "GET /api/room-service/rooms/{}" for every REST rule of the room service's RPCs. */
function ruled(): Set<string> {
  const out = new Set<string>();
  for (const service of roomServiceDefinition.services) {
    for (const method of service.methods) {
      const top = getOption(method, http);
      for (const rule of [top, ...top.additionalBindings]) {
        if (!rule.pattern.case || rule.pattern.case === "custom") continue;
        out.add(`${rule.pattern.case.toUpperCase()} ${norm(rule.pattern.value)}`);
      }
    }
  }
  return out;
}

describe("tt.room.v1 services", () => {
  it("serve every rooms, room-roles, info and room/DJ admin row of operations.tsv", () => {
    const have = ruled();
    const mine = rows().filter((r) => ROOM_AREAS.has(r.area) || (r.area === "admin" && ROOM_ADMIN.test(r.path)));
    expect(mine.length).toBe(57);
    expect(mine.filter((r) => !have.has(`${r.method} ${norm(r.path)}`)).map((r) => `${r.method} ${r.path}`)).toEqual(
      [],
    );
  });

  it("serve every other /api/room-service row but the songs and uploads", () => {
    const have = ruled();
    const missing = rows().filter((r) => !have.has(`${r.method} ${norm(r.path)}`));
    expect(missing.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it("implements every RPC of the proto (the host starts it)", async () => {
    await expectEveryRpcImplemented(roomServiceDefinition, {
      services: ROOM_SERVICES,
      bus: "memory",
      alongside: [userServiceDefinition],
    });
  });
});
