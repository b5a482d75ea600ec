// A private nats-server for tests that must take NATS away and bring it back (the shared one must stay up
// for everyone else). Same port and store directory on restart, so clients reconnect and streams survive.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../net.ts";

export interface TestNatsServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its store. */
  dispose(): Promise<void>;
}

export async function startTestNatsServer(timeoutMs = 10_000): Promise<TestNatsServer> {
  const dir = await mkdtemp(path.join(tmpdir(), "tt-bus-nats-"));
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = () =>
    new Promise<void>((resolve, reject) => {
      // Running already: a second server would fail on the port while this one, no longer held, outlived the test.
      if (child) {
        resolve();
        return;
      }
      const c = spawn("nats-server", ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir], {
        stdio: ["ignore", "ignore", "pipe"],
      });
      child = c;
      let log = "";
      const timer = setTimeout(() => reject(new Error(`nats-server not ready in ${timeoutMs} ms: ${log}`)), timeoutMs);
      c.once("error", (err) => (clearTimeout(timer), reject(err)));
      c.stderr!.on("data", (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes("Server is ready")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });

  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((resolve) => c.once("exit", resolve));
    c.kill("SIGTERM");
    await exited;
  };

  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    start,
    stop,
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
