// A process with the kit's process guards installed and one deliberate bug: `/reject?id=…` starts a promise
// that rejects with nobody listening, as part of the request `id`. process-guards.test.ts runs it as a
// child, because a test runner treats any unhandled rejection in its own process as a failure.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { register } from "prom-client";
import { createLogger } from "../logger.ts";
import { installProcessGuards, runWithRequestId } from "../process-guards.ts";

const logger = createLogger({ service: "guarded-process" });
installProcessGuards({ logger });

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://-");
  if (url.pathname === "/reject") {
    runWithRequestId(url.searchParams.get("id") ?? "", () => {
      // The bug under test: a rejection nobody handles, a little after the request started it.
      void new Promise((_, reject) => setImmediate(() => reject(new Error("deliberate rejection"))));
    });
    res.writeHead(202).end();
    return;
  }
  if (url.pathname === "/metrics") {
    register.metrics().then(
      (text) => res.writeHead(200, { "content-type": register.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
    return;
  }
  res.writeHead(404).end();
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ listening: (server.address() as AddressInfo).port })}\n`);
});
process.once("SIGTERM", () => server.close());
