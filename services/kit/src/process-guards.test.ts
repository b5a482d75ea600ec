// The process guard of issue 9 defect 1: an unhandled rejection is logged with its request id, counted on
// /metrics, and the process keeps serving. The deliberate rejection happens in a child process
// (test-support/guarded-process.ts): the test runner would count one in its own process as a failure.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { createInterface } from "node:readline";
import { createClient, createMethodImplSpec, type MethodImplSpec } from "@connectrpc/connect";
import { EchoService } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInProcessTransport } from "./transport/in-process-transport.ts";
import { createRequestIdInterceptor } from "./interceptors/request-id.ts";
import { createLogger } from "./logger.ts";
import { currentRequestId, installProcessGuards, UNHANDLED_REJECTIONS_METRIC } from "./process-guards.ts";
import { methodKey } from "./transport/route-capture.ts";
import { NODE_TYPESCRIPT_FLAGS } from "./node-flags.ts";

const FIXTURE = path.join(import.meta.dirname, "test-support/guarded-process.ts");

describe("process guards in a process with a deliberate unhandled rejection", () => {
  let child: ChildProcess;
  let baseUrl: string;
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];

  /** Resolves with the first log line (already read or still to come) that matches. */
  function logLine(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = lines.find(match);
        if (found) resolve(found);
        else if (child.exitCode !== null || child.signalCode !== null) reject(new Error("the process ended"));
        else waiters.push(check);
      };
      check();
    });
  }

  beforeAll(async () => {
    child = spawn(process.execPath, [...NODE_TYPESCRIPT_FLAGS, FIXTURE], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = once(child, "exit");
    createInterface({ input: child.stdout! }).on("line", (text) => {
      try {
        lines.push(JSON.parse(text) as Record<string, unknown>);
      } catch {
        lines.push({ text });
      }
      for (const wake of waiters.splice(0)) wake();
    });
    void exited.then(() => {
      for (const wake of waiters.splice(0)) wake();
    });
    const { listening } = await logLine((line) => typeof line.listening === "number");
    baseUrl = `http://127.0.0.1:${listening as number}`;
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    }
  });

  const count = async () => {
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    const match = new RegExp(`^${UNHANDLED_REJECTIONS_METRIC} (\\d+)$`, "m").exec(text);
    return match ? Number(match[1]) : undefined;
  };

  it("issue 9 defect 1 guard: a deliberate rejection is logged with its request id and counted; the process lives", async () => {
    expect(await count()).toBe(0);
    for (const id of ["req-one", "req-two"]) {
      expect((await fetch(`${baseUrl}/reject?id=${id}`)).status).toBe(202);
      const line = await logLine((l) => l.requestId === id);
      expect(line).toMatchObject({
        level: 50,
        msg: "unhandled promise rejection (a bug: the process keeps serving)",
        err: { message: "deliberate rejection" },
      });
    }
    expect(await count()).toBe(2);
    expect(child.exitCode).toBeNull();
  });
});

describe("request scope", () => {
  it("gives the code a call runs the call's request id, through the request-id interceptor", async () => {
    let seen: string | undefined;
    const spec = createMethodImplSpec(EchoService.method.echo, async () => {
      await Promise.resolve();
      seen = currentRequestId();
      return {};
    });
    const methods = new Map<string, MethodImplSpec>([[methodKey(EchoService.method.echo), spec]]);
    const logger = createLogger({ service: "kit-test", level: "silent" });
    const transport = createInProcessTransport({ methods, interceptors: [createRequestIdInterceptor({ logger })] });
    await createClient(EchoService, transport).echo({}, { headers: { "x-request-id": "req-42" } });
    expect(seen).toBe("req-42");
    expect(currentRequestId()).toBeUndefined();
  });

  it("is installed once per process", () => {
    const logger = createLogger({ service: "kit-test", level: "silent" });
    const listeners = () => process.listenerCount("unhandledRejection");
    const before = listeners();
    const first = installProcessGuards({ logger });
    try {
      expect(listeners()).toBe(before + 1);
      installProcessGuards({ logger }).uninstall();
      expect(listeners()).toBe(before + 1);
    } finally {
      first.uninstall();
    }
    expect(listeners()).toBe(before);
  });
});
