// A local HTTP server standing in for an outside provider: it records every request it is sent and
// answers with what the test's handler returns, so tests assert on both sides of the real client code.
// Shared by every service's provider tests (moved here from the user service).
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path with query string, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body's bytes as sent (an encrypted web push is not text). */
  rawBody: Buffer;
  /** The body parsed as a form, when it was sent as one. */
  form: Record<string, string>;
  /** The body parsed as JSON, when it was sent as JSON. */
  json: unknown;
}

export type FakeAnswer =
  | { status: number; json?: unknown; text?: string }
  /** Never answer (until the server closes): for timeout tests without sleeping. */
  | "hang";

export type FakeHandler = (request: RecordedRequest) => FakeAnswer;

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** Replaces the handler, for tests whose answers change between calls. */
  setHandler(handler: FakeHandler): void;
  close(): Promise<void>;
}

export async function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  let current = handler;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks);
      const body = rawBody.toString("utf8");
      const url = new URL(req.url ?? "/", "http://fake");
      const contentType = req.headers["content-type"] ?? "";
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        url: req.url ?? "/",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        rawBody,
        form: contentType.startsWith("application/x-www-form-urlencoded")
          ? Object.fromEntries(new URLSearchParams(body))
          : {},
        json: contentType.startsWith("application/json") && body !== "" ? JSON.parse(body) : undefined,
      };
      requests.push(recorded);
      const answer = current(recorded);
      if (answer === "hang") return;
      if (answer.json !== undefined) {
        res.writeHead(answer.status, { "content-type": "application/json" });
        res.end(JSON.stringify(answer.json));
      } else {
        res.writeHead(answer.status, { "content-type": "text/plain" });
        res.end(answer.text ?? "");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setHandler(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The user and password of a Basic Authorization header, for asserting what a client sent. */
export function decodeBasicAuth(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic (.+)$/.exec(header ?? "");
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
