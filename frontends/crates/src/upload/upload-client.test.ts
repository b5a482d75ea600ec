import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createSessionStore, errorText } from "@tt/web-kit";
import { MemoryStorage } from "@tt/web-kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createXhrUploader, UPLOAD_PATH, UploadError } from "./upload-client.ts";

// A stand-in for the gateway: answers the upload path like the upload service does, with CORS for jsdom's origin.
let server: Server;
let origin: string;
const received: { authorization?: string; contentType?: string; size: number }[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader("Access-Control-Allow-Origin", req.headers.origin ?? "*");
    res.setHeader("Access-Control-Allow-Headers", "authorization, accept, content-type");
    res.setHeader("Access-Control-Allow-Methods", "POST");
    if (req.method === "OPTIONS") return void res.writeHead(204).end();
    void readAll(req).then((body) => {
      received.push({
        authorization: req.headers.authorization,
        contentType: req.headers["content-type"],
        size: body.length,
      });
      res.writeHead(req.url === UPLOAD_PATH ? answer.status : 404, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function uploader() {
  const session = createSessionStore(new MemoryStorage());
  session.signIn({ token: "listener-token", tokenType: "user" }, { uuid: "u1", email: "a@example.test", role: "user" });
  return createXhrUploader({ session }, origin);
}

describe("XHR uploader", () => {
  it("sends the file multipart with the bearer token, reports progress to the end and answers the song", async () => {
    answer = { status: 200, body: { songId: 42, status: "MISSING_METADATA" } };
    const progress: number[] = [];
    const song = await uploader()(
      { file: new File([new Uint8Array(64 * 1024)], "tone.mp3", { type: "audio/mpeg" }), public: true },
      (fraction) => progress.push(fraction),
    );
    expect(song).toMatchObject({ songId: "42", status: "MISSING_METADATA" });
    expect(progress.at(-1)).toBe(1);
    const request = received.at(-1)!;
    expect(request.authorization).toBe("Bearer listener-token");
    expect(request.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.size).toBeGreaterThan(64 * 1024);
  });

  it("turns a refusal into the spec's text: the server's message below 500", async () => {
    answer = { status: 403, body: { statusCode: 403, message: "Uploading music requires the uploadMusic capability" } };
    const refusal = await uploader()({ file: new File(["x"], "a.mp3"), public: false }, () => undefined).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(UploadError);
    expect(errorText(refusal)).toBe("Uploading music requires the uploadMusic capability");
  });

  it("shows the generic text for a server failure", async () => {
    answer = { status: 502, body: { message: "upstream exploded" } };
    const failure = await uploader()({ file: new File(["x"], "a.mp3"), public: false }, () => undefined).catch(
      (error: unknown) => error,
    );
    expect(errorText(failure)).toBe("Something went wrong, please try again.");
  });
});
