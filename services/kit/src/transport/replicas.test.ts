// Issue 28 finding 5: a service reached at several base URLs (its replicas) gets each call, and each new stream, on
// the next replica in turn; a replica whose connection is refused is set aside and the call goes to another (nothing
// was sent to it), and it is taken back once it listens again. A call that reached a replica is never sent twice.
// One URL behaves as before. Against real HTTP/2 servers on loopback ports.
import http2 from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import { Code, createClient, type Client } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { EchoService } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../net.ts";
import { eventually } from "../testing/eventually.ts";
import { createServiceTransport, parseServiceUrls, ReplicaSet } from "./replicas.ts";
import { refusalOf } from "../testing/refusals.ts";

interface Replica {
  url: string;
  /** Calls it received (unary and streams). */
  calls: number;
  /** Stops listening and cuts every connection. */
  close(): Promise<void>;
}

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/**
 * An h2c server of EchoService on `port` (0: a free one) whose answers name it: Echo answers `name`, EchoStream
 * sends `name` `count` times. Echo with text "cut" cuts every connection of the server instead of answering.
 */
async function replica(name: string, port = 0): Promise<Replica> {
  const sockets = new Set<Socket>();
  const state = { calls: 0 };
  const server = http2.createServer(
    connectNodeAdapter({
      routes: (router) =>
        router.service(EchoService, {
          async echo(req) {
            state.calls++;
            if (req.text === "cut") {
              for (const socket of sockets) socket.destroy();
              await new Promise(() => {});
            }
            return { text: name };
          },
          async *echoStream(req) {
            state.calls++;
            for (let index = 0; index < req.count; index++) yield { text: name, index };
          },
        }),
    }),
  );
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    }));
  closers.push(close);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get calls() {
      return state.calls;
    },
    close,
  };
}

function clientOf(urls: string[]): { echo: Client<typeof EchoService>; replicas?: ReplicaSet } {
  const reached = createServiceTransport(urls);
  closers.push(() => reached.close());
  return { echo: createClient(EchoService, reached.transport), replicas: reached.replicas };
}

async function texts(echo: Client<typeof EchoService>, calls: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < calls; i++) out.push((await echo.echo({ text: "hi" })).text);
  return out;
}

describe("service URLs", () => {
  it("reads one URL, or several separated by commas, and refuses anything else naming the entry", () => {
    expect(parseServiceUrls("http://user:8080")).toEqual(["http://user:8080"]);
    expect(parseServiceUrls(" http://127.0.0.1:1 , http://127.0.0.1:2,")).toEqual([
      "http://127.0.0.1:1",
      "http://127.0.0.1:2",
    ]);
    expect(() => parseServiceUrls("")).toThrow("must be an http:// or https:// URL");
    expect(() => parseServiceUrls("nats://x:1")).toThrow("must be an http:// or https:// URL");
    expect(() => parseServiceUrls("http://a:1,nats://b:2")).toThrow('"nats://b:2" is not an http:// or https:// URL');
    expect(() => parseServiceUrls("http://a:1,not a url")).toThrow('"not a url" is not an http(s) URL');
  });
});

describe("a service at several replicas", () => {
  it("sends each call and each new stream to the next replica in turn", async () => {
    const [a, b] = [await replica("a"), await replica("b")];
    const { echo, replicas } = clientOf([a.url, b.url]);
    expect(replicas?.urls).toEqual([a.url, b.url]);
    expect(await texts(echo, 4)).toEqual(["a", "b", "a", "b"]);
    const streamed: string[] = [];
    for (let i = 0; i < 2; i++) {
      for await (const m of echo.echoStream({ text: "s", count: 2 })) streamed.push(m.text);
    }
    expect(streamed).toEqual(["a", "a", "b", "b"]);
    expect([a.calls, b.calls]).toEqual([3, 3]);
  });

  it("sets a replica that refuses aside and sends its calls to another, unary and streams alike", async () => {
    const [a, b] = [await replica("a"), await replica("b")];
    const down = `http://127.0.0.1:${await freePort()}`;
    const { echo, replicas } = clientOf([a.url, down, b.url]);
    const answers = await texts(echo, 6);
    expect(answers.every((t) => t === "a" || t === "b")).toBe(true);
    expect(answers.filter((t) => t === "a").length).toBeGreaterThanOrEqual(2);
    expect(answers.filter((t) => t === "b").length).toBeGreaterThanOrEqual(2);
    expect(replicas!.isDown(1)).toBe(true);
    const streamed: string[] = [];
    for (let i = 0; i < 3; i++) {
      for await (const m of echo.echoStream({ text: "s", count: 1 })) streamed.push(m.text);
    }
    expect(streamed.every((t) => t === "a" || t === "b")).toBe(true);
    expect(a.calls + b.calls).toBe(9);
  });

  it("takes a replica back once it listens again", async () => {
    const a = await replica("a");
    const b = await replica("b");
    const { echo, replicas } = clientOf([a.url, b.url]);
    expect(await texts(echo, 2)).toEqual(["a", "b"]);
    const port = Number(new URL(b.url).port);
    await b.close();
    // Every call is answered while b is gone: by a.
    expect(await texts(echo, 4)).toEqual(["a", "a", "a", "a"]);
    expect(replicas!.isDown(1)).toBe(true);
    await replica("b", port);
    await eventually("b answering again", async () => (await texts(echo, 2)).includes("b"), { timeoutMs: 5_000 });
    expect(replicas!.isDown(1)).toBe(false);
  });

  it("does not send a call that reached a replica again when the replica goes away under it", async () => {
    const [a, b] = [await replica("a"), await replica("b")];
    const { echo } = clientOf([a.url, b.url]);
    const err = await refusalOf(echo.echo({ text: "cut" }));
    expect(err.code).toBe(Code.Unavailable);
    expect(a.calls + b.calls).toBe(1);
    // The next calls are answered.
    expect((await texts(echo, 2)).sort()).toEqual(["a", "b"]);
  });

  it("answers unavailable when no replica can be reached", async () => {
    const urls = [`http://127.0.0.1:${await freePort()}`, `http://127.0.0.1:${await freePort()}`];
    const { echo, replicas } = clientOf(urls);
    const err = await refusalOf(echo.echo({ text: "hi" }));
    expect(err.code).toBe(Code.Unavailable);
    expect(err.rawMessage).toMatch(/ECONNREFUSED/);
    expect([replicas!.isDown(0), replicas!.isDown(1)]).toEqual([true, true]);
  });
});

describe("a service at one URL", () => {
  it("is the service's own transport, as before: no replicas, a refused connection is unavailable", async () => {
    const a = await replica("a");
    const { echo, replicas } = clientOf([a.url]);
    expect(replicas).toBeUndefined();
    expect(await texts(echo, 2)).toEqual(["a", "a"]);
    const refused = clientOf([`http://127.0.0.1:${await freePort()}`]);
    expect((await refusalOf(refused.echo.echo({ text: "hi" }))).code).toBe(Code.Unavailable);
  });
});

describe("the replica set", () => {
  it("sets a replica aside for twice as long at each failure in a row, up to the longest, and forgets on success", () => {
    let now = 0;
    const changes: Array<{ up: boolean; downForMs?: number }> = [];
    const set = new ReplicaSet(["http://a", "http://b"], {
      downMs: 100,
      maxDownMs: 300,
      now: () => now,
      onChange: ({ up, downForMs }) => changes.push({ up, ...(downForMs ? { downForMs } : {}) }),
    });
    expect(set.order()).toEqual([0, 1]);
    expect(set.order()).toEqual([1, 0]);
    set.failed(0);
    // Set aside: last, whoever's turn it is.
    expect(set.order()).toEqual([1, 0]);
    expect(set.order()).toEqual([1, 0]);
    now = 100;
    expect(set.isDown(0)).toBe(false);
    set.failed(0);
    set.failed(0);
    set.failed(0);
    expect(changes.map((c) => c.downForMs)).toEqual([100, 200, 300, 300]);
    set.reached(0);
    set.reached(0);
    expect(set.isDown(0)).toBe(false);
    expect(changes.at(-1)).toEqual({ up: true });
    expect(changes.filter((c) => c.up)).toHaveLength(1);
    // Both aside: the soonest due first.
    set.failed(0);
    set.failed(1);
    set.failed(1);
    expect(set.order()).toEqual([0, 1]);
  });
});
