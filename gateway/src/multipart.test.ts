// Multipart uploads end to end: real servers on port 0, the fixture service's Upload behind the gateway,
// bodies built by the platform's FormData (what a browser sends) or by hand where they must be malformed.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import http2 from "node:http2";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, startFixtureGateway, type GatewayUnderTest, type Running } from "./testing/servers.ts";

const LIMIT = 64 * 1024;
// What the gateway reads and drops of a body it refused, before it cuts the connection (issue 23 finding 9).
const DRAIN = 256 * 1024;
let gw: GatewayUnderTest;
// The same gateway behind a handler that notes, as each answer is finished, how its request stood.
let observed: Running;
const finished: Array<{ flowing: boolean | null; complete: boolean; bytesRead: number }> = [];

beforeAll(async () => {
  gw = await startFixtureGateway({
    bodyLimitBytes: LIMIT,
    multipartBodyLimitBytes: LIMIT,
    refusedBodyDrainBytes: DRAIN,
  });
  observed = await listen((req, res) => {
    res.once("finish", () =>
      finished.push({ flowing: req.readableFlowing, complete: req.complete, bytesRead: req.socket.bytesRead }),
    );
    gw.gateway.handler(req, res);
  });
});

afterAll(async () => {
  await observed.close();
  await gw.close();
});

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

const post = async (path: string, body: FormData | string, headers: Record<string, string> = {}) => {
  const res = await fetch(gw.url + path, { method: "POST", body, headers });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

const form = (entries: Array<[string, string | [Uint8Array, string, string?]]>): FormData => {
  const f = new FormData();
  for (const [name, value] of entries) {
    if (typeof value === "string") f.append(name, value);
    else f.append(name, new Blob([value[0] as Uint8Array<ArrayBuffer>], { type: value[2] ?? "" }), value[1]);
  }
  return f;
};

describe("multipart/form-data", () => {
  it("fills an UploadedFile field from a file part and scalar fields from text parts", async () => {
    const png = randomBytes(1000);
    const r = await post(
      "/api/fixture/uploads",
      form([
        ["kind", "avatar"],
        ["size", "42"],
        ["colors", "COLOR_RED"],
        ["colors", "3"],
        ["file", [png, "café.png", "image/png"]],
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      kind: "avatar",
      size: 42,
      colors: ["COLOR_RED", "COLOR_BLUE"],
      title: "",
      files: [{ field: "file", filename: "café.png", contentType: "image/png", size: "1000", sha256: sha256(png) }],
    });
  });

  it("takes several parts for a repeated UploadedFile field, in order, by proto or JSON name", async () => {
    const a = randomBytes(10);
    const b = randomBytes(20);
    const c = randomBytes(30);
    const r = await post(
      "/api/fixture/uploads",
      form([
        ["attachments", [a, "a.bin", "application/octet-stream"]],
        ["attachments", [b, "b.txt", "text/plain"]],
        ["meta.cover", [c, "c.jpg", "image/jpeg"]],
        ["meta.title", "t"],
        ["meta.nested.amount", "7"],
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.json.files).toEqual([
      {
        field: "attachments",
        filename: "a.bin",
        contentType: "application/octet-stream",
        size: "10",
        sha256: sha256(a),
      },
      { field: "attachments", filename: "b.txt", contentType: "text/plain", size: "20", sha256: sha256(b) },
      { field: "meta.cover", filename: "c.jpg", contentType: "image/jpeg", size: "30", sha256: sha256(c) },
    ]);
    expect(r.json).toMatchObject({ title: "t", nested: { amount: 7 } });
  });

  it("property: any bytes survive the round trip (sha256 and size)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 8 * 1024 }), fc.uint8Array({ maxLength: 256 }), async (x, y) => {
        const r = await post(
          "/api/fixture/uploads",
          form([
            ["file", [x, "x"]],
            ["attachments", [y, "y"]],
          ]),
        );
        expect(r.status).toBe(200);
        const files = r.json.files as Array<{ size: string; sha256: string }>;
        expect(files.map((f) => [f.size, f.sha256])).toEqual([
          [String(x.length), sha256(x)],
          [String(y.length), sha256(y)],
        ]);
      }),
      { numRuns: 25 },
    );
  });

  it("a body-field rule reads names relative to the field; path variables win over form fields", async () => {
    const c = randomBytes(5);
    const meta = await post(
      "/api/fixture/uploads/k1/meta",
      form([
        ["title", "hello"],
        ["cover", [c, "c.gif", "image/gif"]],
      ]),
    );
    expect(meta.status).toBe(200);
    expect(meta.json).toMatchObject({
      kind: "k1",
      title: "hello",
      files: [{ field: "meta.cover", filename: "c.gif" }],
    });
    const wins = await post("/api/fixture/uploads/from-path", form([["kind", "from-form"]]));
    expect(wins.json).toMatchObject({ kind: "from-path" });
  });

  it("an empty file input (no name, no bytes) leaves the field unset", async () => {
    const r = await post("/api/fixture/uploads", form([["file", [new Uint8Array(), ""]]]));
    expect(r.status).toBe(200);
    expect(r.json.files).toEqual([]);
  });

  it.each<[string, Array<[string, string | [Uint8Array, string]]>, RegExp]>([
    ["unknown text field", [["nope", "1"]], /unknown form field "nope"/],
    ["unknown file field", [["nope", [new Uint8Array([1]), "n"]]], /unknown form field "nope"/],
    ["file for a scalar field", [["kind", [new Uint8Array([1]), "k"]]], /"kind" is not a file field/],
    ["text for a file field", [["file", "not a file"]], /"file" takes a file/],
    ["text for a repeated file field", [["attachments", "x"]], /"attachments" takes a file/],
    ["bad int32", [["size", "big"]], /size/],
    [
      "a singular file twice",
      [
        ["file", [new Uint8Array([1]), "a"]],
        ["file", [new Uint8Array([2]), "b"]],
      ],
      /"file" given more than once/,
    ],
    [
      "a singular text field twice",
      [
        ["kind", "a"],
        ["kind", "b"],
      ],
      /"kind" given more than once/,
    ],
  ])("400 for %s, naming the field", async (_, entries, message) => {
    const r = await post("/api/fixture/uploads", form(entries));
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ statusCode: 400, error: "Bad Request" });
    expect(r.json.message).toMatch(message);
  });

  it.each([
    ["no boundary", "multipart/form-data", "--x\r\n"],
    ["truncated", "multipart/form-data; boundary=x", '--x\r\ncontent-disposition: form-data; name="kind"\r\n\r\nab'],
    ["no part headers", "multipart/form-data; boundary=x", "--x\r\n\r\nab\r\n--x--\r\n"],
  ])("400 for a malformed body: %s", async (_, type, body) => {
    const r = await post("/api/fixture/uploads", body, { "content-type": type });
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/multipart|form field/);
  });

  it("415 for multipart on a rule without an UploadedFile field", async () => {
    const r = await post("/api/fixture/shelves/s1:archive", form([["reason", "x"]]));
    expect(r.status).toBe(415);
    expect(r.json.message).toMatch(/send application\/json"?$/);
  });

  it("413 for a file over the limit, and for a declared length over it", async () => {
    const big = await post("/api/fixture/uploads", form([["file", [randomBytes(LIMIT + 1), "big"]]]));
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ statusCode: 413, error: "Payload Too Large" });
    const declared = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${gw.url}/api/fixture/uploads`, {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(LIMIT * 100) },
      });
      req.once("response", (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      req.once("error", reject);
      req.flushHeaders();
    });
    expect(declared).toBe(413);
  });

  // The client writes for ever; it can only get an answer if the gateway answers without the whole body. After the
  // answer the gateway drops what follows (so a client that sends a finite body can read the answer, see
  // refused-body.test.ts), but only up to refusedBodyDrainBytes: then it closes the connection.
  it("413 over HTTP/1.1 while the client is still sending: the gateway answers, drops at most its bound, then closes", async () => {
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    const result = await new Promise<{ status: number; sent: number; cut: boolean }>((resolve) => {
      let sent = 0;
      let answered = false;
      let status = 0;
      const req = http.request(`${observed.url}/api/fixture/uploads`, {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=x" },
      });
      req.once("response", (res) => {
        status = res.statusCode!;
        res.resume();
      });
      // The client keeps sending after the answer: only the gateway cutting the connection ends this.
      req.once("close", () => {
        answered = true;
        resolve({ status, sent, cut: true });
      });
      req.once("error", () => undefined);
      req.write('--x\r\ncontent-disposition: form-data; name="file"; filename="f"\r\n\r\n');
      const pump = () => {
        while (!answered) {
          sent += chunk.length;
          if (!req.write(chunk)) {
            req.once("drain", pump);
            return;
          }
        }
      };
      pump();
    });
    expect(result.status).toBe(413);
    expect(result.cut).toBe(true);
    expect(result.sent).toBeGreaterThan(LIMIT + DRAIN);
    // The answer went out as soon as the limit was passed, far from the request's end.
    const seen = finished.at(-1)!;
    expect(seen).toMatchObject({ complete: false });
    expect(seen.bytesRead).toBeLessThan(LIMIT + 512 * 1024);
  });

  it("413 over HTTP/2 while the client is still sending; the stream is ended, the session lives", async () => {
    const session = http2.connect(gw.h2url);
    try {
      const chunk = Buffer.alloc(16 * 1024, 0x62);
      const status = await new Promise<number>((resolve, reject) => {
        const stream = session.request({
          ":method": "POST",
          ":path": "/api/fixture/uploads",
          "content-type": "multipart/form-data; boundary=x",
        });
        let answered = false;
        stream.once("response", (headers) => {
          answered = true;
          stream.resume();
          resolve(headers[":status"]!);
        });
        stream.once("error", (e) => (answered ? undefined : reject(e)));
        stream.write('--x\r\ncontent-disposition: form-data; name="file"; filename="f"\r\n\r\n');
        const pump = () => {
          while (!answered && !stream.destroyed) {
            if (!stream.write(chunk)) {
              stream.once("drain", pump);
              return;
            }
          }
        };
        pump();
      });
      expect(status).toBe(413);
      // The same session still answers.
      const again = session.request({ ":method": "GET", ":path": "/api/fixture" });
      const [headers] = (await new Promise((resolve) => again.once("response", (h) => resolve([h])))) as [
        http2.IncomingHttpHeaders,
      ];
      again.resume();
      expect(headers[":status"]).toBe(200);
    } finally {
      session.close();
    }
  });

  it("a refused part fails before its bytes are read", async () => {
    // An unknown file field followed by a body that never ends: the answer can only come from the check
    // made on the part's headers.
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${gw.url}/api/fixture/uploads`, {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=x" },
      });
      req.once("response", (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      req.once("error", reject);
      req.write('--x\r\ncontent-disposition: form-data; name="nope"; filename="f"\r\n\r\nsome bytes');
    });
    expect(status).toBe(400);
  });

  it("JSON still works on the same rule", async () => {
    const r = await post(
      "/api/fixture/uploads",
      JSON.stringify({ kind: "j", file: { content: "AAE=", filename: "f" } }),
      {
        "content-type": "application/json",
      },
    );
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ kind: "j", files: [{ field: "file", filename: "f", size: "2" }] });
  });
});

describe("issue 12: the multipart limit is its own", () => {
  it("a multipart body over the JSON limit but under MULTIPART_BODY_LIMIT_BYTES passes; a JSON body that large is a 413", async () => {
    const small = await startFixtureGateway({ bodyLimitBytes: 1024, multipartBodyLimitBytes: 256 * 1024 });
    try {
      const bytes = randomBytes(100 * 1024);
      const ok = await fetch(small.url + "/api/fixture/uploads", {
        method: "POST",
        body: form([["file", [bytes, "song.mp3", "audio/mpeg"]]]),
      });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { files: Array<{ sha256: string }> }).files[0]).toMatchObject({
        sha256: sha256(bytes),
      });
      const json = await fetch(small.url + "/api/fixture/echo", {
        method: "PUT",
        body: JSON.stringify({ tenant: "x".repeat(100 * 1024) }),
      });
      expect(json.status).toBe(413);
      await json.arrayBuffer();
      const tooBig = await fetch(small.url + "/api/fixture/uploads", {
        method: "POST",
        body: form([["file", [randomBytes(300 * 1024), "song.mp3"]]]),
      });
      expect(tooBig.status).toBe(413);
      await tooBig.arrayBuffer();
    } finally {
      await small.close();
    }
  });
});
