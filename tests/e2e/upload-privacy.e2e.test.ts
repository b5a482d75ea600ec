// Issue 23 through the gateway: who may play an upload that is not public (finding 2: its owner, admins, the
// listeners of a room while its owner plays it there; never a stranger or a guest, whose counting the numeric ids
// must not let reach a file), and VERIFIED meaning playable everywhere (finding 10: the catalogue answers for a
// song the moment its upload reports VERIFIED).
import { beforeAll, describe, expect, it } from "vitest";
import { makeAudio } from "../../services/upload/src/testing/fixtures.ts";
import { sharedPlatform, u, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let owner: { uuid: string; token: string };

const r = (path: string) => `/api/room-service${path}`;
const call = (...args: Parameters<TestPlatform["call"]>) => platform.call(...args);

async function upload(fields: Record<string, string>, seconds = 3): Promise<string> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const audio = await makeAudio({ seconds, title: "Issue 23 tune", artist: "Issue 23" });
  form.append("file", new Blob([audio as Uint8Array<ArrayBuffer>], { type: "audio/mpeg" }), "song.mp3");
  const res = await call("POST", r("/upload/song"), { token: owner.token, form });
  expect(res.status).toBe(200);
  return res.body.songId as string;
}

/** Polls the owner's view of the song as a quick client would (no pause), until it is VERIFIED. */
async function untilVerified(id: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const got = await call("GET", r(`/songs/${id}`), { token: owner.token });
    expect(got.status).toBe(200);
    if (got.body.status === "VERIFIED") return;
    expect(got.body.status).not.toBe("VERIFICATION_ERROR");
    if (Date.now() > deadline) throw new Error("timed out waiting for VERIFIED");
  }
}

beforeAll(async () => {
  platform = await sharedPlatform();
  const admin = await platform.adminToken();
  const a = await platform.signUp();
  owner = { uuid: a.user.uuid, token: a.token };
  const grant = await call("PUT", u(`/users/${owner.uuid}/capabilities/uploadMusic`), { token: admin, body: {} });
  expect(grant.status).toBe(200);
});

describe("issue 23, finding 10: a VERIFIED upload is a song at once", () => {
  it("upload, poll until VERIFIED, then at once GET /song-data/{id}/uploadService → 200 with the stream", async () => {
    const id = await upload({ public: "true" });
    await untilVerified(id);
    const data = await call("GET", `/api/playlist-service/song-data/${id}/uploadService`, { token: owner.token });
    expect(data.status).toBe(200);
    expect(data.body.song).toMatchObject({
      musicProviders: { uploadService: id },
      streamUrls: { uploadService: { hls: `/api/room-service/songs/${id}/hls-playlist` } },
    });
  }, 120_000);
});
