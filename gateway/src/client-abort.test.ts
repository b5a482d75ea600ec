// A REST client that goes away in the middle of its request body is not a failure of ours: the call ends as
// Canceled, nothing is logged as an internal error and nothing is left running (issue 9 defect 1).
import type { IncomingMessage, ServerResponse } from "node:http";
import net from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRouterTransport } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { createGateway } from "./gateway.ts";
import { fixtureRoutes } from "./testing/fixture-service.ts";
import { listen, type Running } from "./testing/servers.ts";

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, cb) {
    lines.push(chunk.toString());
    cb();
  },
});
/** Called once the gateway has finished with a request (after its close, one macrotask for its promises). */
let onFinished: () => void = () => undefined;
let running: Running;

beforeAll(async () => {
  const gateway = createGateway({
    backends: [
      {
        services: [FixtureService],
        transport: createRouterTransport(fixtureRoutes),
        connect: { handler: connectNodeAdapter({ routes: fixtureRoutes }) },
      },
    ],
    logger: pino({ level: "warn" }, sink),
  });
  running = await listen((req, res) => {
    // After the request's close, one macrotask lets the gateway's promise chain settle.
    req.once("close", () => setImmediate(onFinished));
    gateway.handler(req as IncomingMessage, res as ServerResponse);
  });
});

afterAll(async () => {
  await running?.close();
});

it("issue 9 defect 1: a client closing mid-body is Canceled, not logged as an internal failure", async () => {
  const { port } = new URL(running.url);
  const finished = new Promise<void>((resolve) => (onFinished = resolve));
  await new Promise<void>((resolve) => {
    const socket = net.connect(Number(port), "127.0.0.1", () => {
      socket.write(
        "PUT /api/fixture/echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{",
        () => socket.destroy(),
      );
    });
    socket.on("error", () => undefined);
    socket.on("close", () => resolve());
  });
  await finished;
  expect(lines.join("")).not.toContain("REST call failed");
  expect((await fetch(`${running.url}/api/fixture/echo`, { method: "PUT", body: "{}" })).status).toBe(200);
});
