// The one contract both adapters must meet. `nats.test.ts` runs it against a real NATS server and
// `memory.test.ts` against the in-process bus; a behaviour a service may rely on belongs here.
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { KvConflictError, type Bus, type DurableMessage, type KvEntry } from "./bus.ts";
import type { BusLogger } from "./bus-logger.ts";
import { HandBack } from "./redelivery.ts";
import { RequestError } from "./request-error.ts";
import { eventually } from "../testing/eventually.ts";

export interface BusContractOptions {
  /** Removes what the suite created on a shared server: every stream/bucket whose name contains `runId`. */
  cleanup?: (runId: string) => Promise<void>;
}

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** Collects what a handler receives; `waitFor(n)` resolves once n items arrived, or rejects after a bound. */
function collector<T>() {
  const items: T[] = [];
  let waiters: Array<{ n: number; resolve: () => void }> = [];
  return {
    items,
    push(item: T) {
      items.push(item);
      waiters = waiters.filter((w) => (items.length >= w.n ? (w.resolve(), false) : true));
    },
    waitFor(n: number, timeoutMs = 5000): Promise<T[]> {
      if (items.length >= n) return Promise.resolve(items);
      return new Promise<T[]>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${n} items within ${timeoutMs} ms, got ${items.length}`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(items);
          },
        });
      });
    },
  };
}

/** What an adapter logged: the level, the message and the fields. */
interface Logged {
  level: "info" | "warn" | "error";
  msg: string;
  fields: Record<string, unknown>;
}

/** A bus logger that keeps what it is given (pino's call form: fields, then the message). */
function recordingLogger(into: Logged[]): BusLogger {
  const at = (level: Logged["level"]) => (fields: Record<string, unknown>, msg: string) =>
    into.push({ level, msg, fields });
  return { info: at("info"), warn: at("warn"), error: at("error") } as unknown as BusLogger;
}

/** `makeBus` makes the adapter under test with the logger it is given. */
export function runBusContract(
  name: string,
  makeBus: (logger: BusLogger) => Promise<Bus>,
  opts: BusContractOptions = {},
): void {
  describe(`Bus contract: ${name}`, () => {
    const runId = randomBytes(4).toString("hex");
    let n = 0;
    // Unique per test so runs (and tests) never share server state.
    const unique = () => `${runId}_${++n}`;
    let bus: Bus;
    let logged: Logged[];

    beforeEach(async () => {
      logged = [];
      bus = await makeBus(recordingLogger(logged));
    });
    afterEach(async () => {
      await bus.close();
    });
    afterAll(async () => {
      await opts.cleanup?.(runId);
    });

    it("delivers by wildcard: `*` one token, `>` the rest", async () => {
      const base = `ct.${unique()}`;
      const star = collector<string>();
      const rest = collector<string>();
      await bus.subscribe(`${base}.*.created`, (m) => star.push(m.subject));
      await bus.subscribe(`${base}.>`, (m) => rest.push(m.subject));
      for (const s of ["room.created", "user.deleted", "a.b.created", "end.created"]) {
        await bus.publish(`${base}.${s}`, enc(s));
      }
      // `end.created` is last and reaches both: once it arrived, everything before it has too.
      expect(await star.waitFor(2)).toEqual([`${base}.room.created`, `${base}.end.created`]);
      expect(await rest.waitFor(4)).toEqual(
        ["room.created", "user.deleted", "a.b.created", "end.created"].map((s) => `${base}.${s}`),
      );
    });

    it("carries data and headers", async () => {
      const subject = `ct.${unique()}.x`;
      const got = collector<{ data: string; headers: Record<string, string> }>();
      await bus.subscribe(subject, (m) => got.push({ data: dec(m.data), headers: m.headers }));
      await bus.publish(subject, enc("hello"), { headers: { "x-request-id": "r1" } });
      const [m] = await got.waitFor(1);
      expect(m?.data).toBe("hello");
      expect(m?.headers["x-request-id"]).toBe("r1");
    });

    it("shares a queue group's messages: each message to exactly one member", async () => {
      const subject = `ct.${unique()}.work`;
      const all = collector<string>();
      const a: string[] = [];
      const b: string[] = [];
      await bus.subscribe(subject, (m) => (a.push(dec(m.data)), all.push(dec(m.data))), { queue: "workers" });
      await bus.subscribe(subject, (m) => (b.push(dec(m.data)), all.push(dec(m.data))), { queue: "workers" });
      const sent = Array.from({ length: 40 }, (_, i) => String(i));
      for (const s of sent) await bus.publish(subject, enc(s));
      await all.waitFor(40);
      expect([...a, ...b].sort()).toEqual([...sent].sort());
      expect(a.length).toBeGreaterThan(0);
      expect(b.length).toBeGreaterThan(0);
    });

    it("answers requests", async () => {
      const subject = `ct.${unique()}.echo`;
      await bus.reply(subject, async (m) => enc(dec(m.data).toUpperCase()));
      const res = await bus.request(subject, enc("ping"));
      expect(dec(res.data)).toBe("PING");
    });

    it("rejects a request nobody answers in time", async () => {
      const subject = `ct.${unique()}.silent`;
      const heard = collector<string>();
      // Listening without answering: the request reaches someone but no reply comes.
      await bus.subscribe(subject, (m) => heard.push(m.subject));
      const started = Date.now();
      const err = await bus.request(subject, enc("?"), { timeoutMs: 200 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RequestError);
      expect((err as RequestError).failure).toBe("timeout");
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      expect(await heard.waitFor(1)).toEqual([subject]);
    });

    it("rejects a request on a subject without responders", async () => {
      const err = await bus.request(`ct.${unique()}.nobody`, enc("?"), { timeoutMs: 2000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RequestError);
      expect((err as RequestError).failure).toBe("no-responders");
    });

    it("turns a throwing reply handler into a rejection", async () => {
      const subject = `ct.${unique()}.fail`;
      await bus.reply(subject, async () => {
        throw new Error("room is full");
      });
      const err = await bus.request(subject, enc("join")).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RequestError);
      expect((err as RequestError).failure).toBe("handler");
      expect((err as RequestError).message).toContain("room is full");
    });

    it("stores a durable message with the same msgId once", async () => {
      const id = unique();
      const stream = `CT_${id}`;
      await bus.ensureStream(stream, [`ct.${id}.>`]);
      await bus.ensureStream(stream, [`ct.${id}.>`]); // idempotent
      const first = await bus.publishDurable(`ct.${id}.points`, enc("a"), { msgId: "m-1" });
      const again = await bus.publishDurable(`ct.${id}.points`, enc("a"), { msgId: "m-1" });
      const other = await bus.publishDurable(`ct.${id}.points`, enc("b"), { msgId: "m-2" });
      expect(first).toEqual({ seq: 1, duplicate: false });
      expect(again).toEqual({ seq: 1, duplicate: true });
      expect(other).toEqual({ seq: 2, duplicate: false });
      const got = collector<string>();
      await bus.consume(stream, "reader", async (m) => got.push(`${m.seq}:${dec(m.data)}`));
      expect(await got.waitFor(2)).toEqual(["1:a", "2:b"]);
    });

    it("resumes a durable consumer where it left off", async () => {
      const id = unique();
      const stream = `CT_${id}`;
      await bus.ensureStream(stream, [`ct.${id}.>`]);
      for (const s of ["1", "2", "3"]) await bus.publishDurable(`ct.${id}.e`, enc(s));
      const first = collector<string>();
      const sub = await bus.consume(stream, "audit", async (m) => first.push(dec(m.data)));
      expect(await first.waitFor(3)).toEqual(["1", "2", "3"]);
      await sub.unsubscribe();
      for (const s of ["4", "5"]) await bus.publishDurable(`ct.${id}.e`, enc(s));
      const second = collector<DurableMessage>();
      await bus.consume(stream, "audit", async (m) => second.push(m));
      const again = await second.waitFor(2);
      expect(again.map((m) => [m.seq, dec(m.data), m.deliveryCount])).toEqual([
        [4, "4", 1],
        [5, "5", 1],
      ]);
    });

    it("filters a consumer by subject and can start with new messages only", async () => {
      const id = unique();
      const stream = `CT_${id}`;
      await bus.ensureStream(stream, [`ct.${id}.>`]);
      await bus.publishDurable(`ct.${id}.room.created`, enc("old"));
      const rooms = collector<string>();
      await bus.consume(stream, "rooms", async (m) => rooms.push(dec(m.data)), {
        filterSubject: `ct.${id}.room.*`,
        deliver: "new",
      });
      await bus.publishDurable(`ct.${id}.user.created`, enc("user"));
      await bus.publishDurable(`ct.${id}.room.created`, enc("new"));
      expect(await rooms.waitFor(1)).toEqual(["new"]);
    });

    it("redelivers a message whose handler threw, before the ones behind it", async () => {
      const id = unique();
      const stream = `CT_${id}`;
      await bus.ensureStream(stream, [`ct.${id}.>`]);
      await bus.publishDurable(`ct.${id}.e`, enc("a"));
      await bus.publishDurable(`ct.${id}.e`, enc("b"));
      const seen = collector<string>();
      await bus.consume(
        stream,
        "flaky",
        async (m) => {
          seen.push(`${dec(m.data)}#${m.deliveryCount}`);
          if (dec(m.data) === "a" && m.deliveryCount === 1) throw new Error("dependency down");
        },
        { redeliveryDelayMs: 20 },
      );
      expect(await seen.waitFor(3)).toEqual(["a#1", "a#2", "b#1"]);
      expect(logged.filter((l) => l.msg === "durable handler failed").map((l) => [l.level, l.fields.seq])).toEqual([
        ["warn", 1],
      ]);
    });

    it("delivers again a durable message its handler hands back, and logs it as handed back, not as a failure", async () => {
      const id = unique();
      const stream = `CT_${id}`;
      await bus.ensureStream(stream, [`ct.${id}.>`]);
      await bus.publishDurable(`ct.${id}.e`, enc("a"));
      const seen = collector<string>();
      await bus.consume(
        stream,
        "stopping",
        async (m) => {
          seen.push(`${dec(m.data)}#${m.deliveryCount}`);
          if (m.deliveryCount === 1) throw new HandBack("the worker is stopping");
        },
        { redeliveryDelayMs: 20 },
      );
      expect(await seen.waitFor(2)).toEqual(["a#1", "a#2"]);
      const handled = logged.filter((l) => l.msg.startsWith("durable"));
      expect(handled).toEqual([
        {
          level: "info",
          msg: "durable message handed back",
          fields: { seq: 1, deliveryCount: 1, reason: "the worker is stopping" },
        },
      ]);
    });

    it("declares a stream's limits, keeps them when left out and removes them with 0", async () => {
      const id = unique();
      const stream = `CT_${id}`;
      await bus.ensureStream(stream, [`ct.${id}.>`], { maxAgeMs: 60_000, maxBytes: 1 << 20 });
      expect(await bus.streamInfo(stream)).toMatchObject({ messages: 0, maxAgeMs: 60_000, maxBytes: 1 << 20 });
      await bus.ensureStream(stream, [`ct.${id}.>`]);
      expect(await bus.streamInfo(stream)).toMatchObject({ maxAgeMs: 60_000, maxBytes: 1 << 20 });
      // A max age below the two-minute duplicate window still deduplicates within it.
      await bus.ensureStream(stream, [`ct.${id}.>`], { maxAgeMs: 30_000 });
      expect((await bus.publishDurable(`ct.${id}.e`, enc("a"), { msgId: "m" })).duplicate).toBe(false);
      expect((await bus.publishDurable(`ct.${id}.e`, enc("a"), { msgId: "m" })).duplicate).toBe(true);
      await bus.ensureStream(stream, [`ct.${id}.>`], { maxAgeMs: 0, maxBytes: 4096 });
      const info = await bus.streamInfo(stream);
      expect(info).toMatchObject({ messages: 1, lastSeq: 1, maxBytes: 4096 });
      expect(info.maxAgeMs).toBeUndefined();
      await expect(bus.streamInfo(`CT_${id}_absent`)).rejects.toThrow();
      await expect(bus.ensureStream(stream, [`ct.${id}.>`], { maxBytes: -1 })).rejects.toThrow();
    });

    it("a work queue holds a message until its consumer acknowledges it, then lets it go", async () => {
      const id = unique();
      const stream = `CT_${id}`;
      await bus.ensureStream(stream, [`ct.${id}.>`], { workQueue: true });
      await bus.ensureStream(stream, [`ct.${id}.>`]); // left out: kept
      expect(await bus.streamInfo(stream)).toMatchObject({ messages: 0, workQueue: true, consumers: 0 });
      await expect(bus.ensureStream(stream, [`ct.${id}.>`], { workQueue: false })).rejects.toThrow(/retention/);
      for (const v of ["a", "b", "c"]) await bus.publishDurable(`ct.${id}.job`, enc(v));
      expect((await bus.streamInfo(stream)).messages).toBe(3);
      const seen = collector<string>();
      const sub = await bus.consume(
        stream,
        "workers",
        async (m) => {
          if (dec(m.data) === "b" && m.deliveryCount === 1) throw new Error("worker died");
          seen.push(`${dec(m.data)}#${m.deliveryCount}`);
        },
        { redeliveryDelayMs: 20 },
      );
      expect(await seen.waitFor(3)).toEqual(["a#1", "b#2", "c#1"]);
      await sub.unsubscribe();
      await eventually("the work queue to be empty", async () => (await bus.streamInfo(stream)).messages === 0);
      // The durable consumer outlives its subscription (the next worker resumes it).
      expect(await bus.streamInfo(stream)).toMatchObject({ messages: 0, lastSeq: 3, consumers: 1 });
    });

    it("discards the oldest messages beyond a stream's max bytes", async () => {
      const id = unique();
      const stream = `CT_${id}`;
      await bus.ensureStream(stream, [`ct.${id}.>`], { maxBytes: 1024 });
      for (let i = 1; i <= 10; i++) await bus.publishDurable(`ct.${id}.e`, enc(String(i).padEnd(300, ".")));
      const info = await bus.streamInfo(stream);
      expect(info.lastSeq).toBe(10);
      expect(info.bytes).toBeLessThanOrEqual(1024);
      expect(info.messages).toBeGreaterThanOrEqual(1);
      expect(info.messages).toBeLessThanOrEqual(3);
      const got = collector<number>();
      await bus.consume(stream, "reader", async (m) => got.push(m.seq));
      const seqs = await got.waitFor(info.messages);
      expect(seqs).toEqual(Array.from({ length: info.messages }, (_, i) => 11 - info.messages + i));
    });

    it("forgets messages older than a stream's max age", async () => {
      const id = unique();
      const stream = `CT_${id}`;
      await bus.ensureStream(stream, [`ct.${id}.>`], { maxAgeMs: 1000 });
      await bus.publishDurable(`ct.${id}.e`, enc("old"));
      expect((await bus.streamInfo(stream)).messages).toBe(1);
      await eventually("the stream to be empty", async () => (await bus.streamInfo(stream)).messages === 0);
      await bus.publishDurable(`ct.${id}.e`, enc("new"));
      const got = collector<string>();
      await bus.consume(stream, "late", async (m) => got.push(`${m.seq}:${dec(m.data)}`));
      expect(await got.waitFor(1)).toEqual(["2:new"]);
    });

    it("refuses durable work without a stream", async () => {
      const id = unique();
      await expect(bus.publishDurable(`ct.${id}.orphan`, enc("x"))).rejects.toThrow();
      await expect(bus.consume(`CT_${id}`, "nobody", async () => {})).rejects.toThrow();
    });

    it("keeps key-value entries with bucket-wide revisions", async () => {
      const kv = await bus.kv(`ct_${unique()}`);
      const r1 = await kv.put("room.1", enc("one"));
      const r2 = await kv.put("room.2", enc("two"));
      expect(r2).toBeGreaterThan(r1);
      const e = await kv.get("room.1");
      expect(e && { ...e, value: dec(e.value) }).toEqual({
        key: "room.1",
        value: "one",
        revision: r1,
        operation: "PUT",
      });
      expect(await kv.get("room.3")).toBeNull();
      expect((await kv.keys()).sort()).toEqual(["room.1", "room.2"]);
      expect(await kv.keys("room.2")).toEqual(["room.2"]);
    });

    it("lists each key once while the keys are being written", async () => {
      const kv = await bus.kv(`ct_${unique()}`);
      const keys = Array.from({ length: 20 }, (_, i) => `room.${i}`);
      for (const key of keys) await kv.put(key, enc("0"));
      let writing = true;
      const writer = (async () => {
        for (let n = 0; writing; n++) await kv.put(keys[n % keys.length]!, enc(String(n)));
      })();
      try {
        for (let scan = 0; scan < 10; scan++) expect((await kv.keys()).sort()).toEqual([...keys].sort());
      } finally {
        writing = false;
        await writer;
      }
    });

    it("refuses create on an existing key and allows it after delete", async () => {
      const kv = await bus.kv(`ct_${unique()}`);
      await kv.create("stage", enc("v1"));
      await expect(kv.create("stage", enc("v2"))).rejects.toBeInstanceOf(KvConflictError);
      await kv.delete("stage");
      expect(await kv.get("stage")).toBeNull();
      expect(await kv.keys()).toEqual([]);
      const r = await kv.create("stage", enc("v3"));
      expect((await kv.get("stage"))?.revision).toBe(r);
    });

    it("lets exactly one of two concurrent updates from the same revision win", async () => {
      const kv = await bus.kv(`ct_${unique()}`);
      const rev = await kv.put("stage", enc("song-1"));
      const results = await Promise.allSettled([
        kv.update("stage", enc("song-2a"), rev),
        kv.update("stage", enc("song-2b"), rev),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r) => r.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(KvConflictError);
      expect((lost[0] as PromiseRejectedResult).reason.key).toBe("stage");
      const now = await kv.get("stage");
      expect(now?.revision).toBe((won[0] as PromiseFulfilledResult<number>).value);
      await expect(kv.update("stage", enc("stale"), rev)).rejects.toBeInstanceOf(KvConflictError);
    });

    it("watches: current values first, then changes", async () => {
      const kv = await bus.kv(`ct_${unique()}`);
      await kv.put("room.a", enc("a1"));
      await kv.put("room.b", enc("b1"));
      await kv.put("room.gone", enc("x"));
      await kv.delete("room.gone");
      await kv.put("user.z", enc("z1"));
      const seen = collector<string>();
      const show = (e: KvEntry) => `${e.operation} ${e.key}=${dec(e.value)}`;
      const sub = await kv.watch((e) => seen.push(show(e)), { key: "room.*" });
      const changes = collector<string>();
      await kv.watch((e) => changes.push(show(e)), { key: "room.*", includeCurrent: false });
      await kv.put("room.a", enc("a2"));
      await kv.put("user.z", enc("z2"));
      await kv.delete("room.b");
      expect(await seen.waitFor(4)).toEqual(["PUT room.a=a1", "PUT room.b=b1", "PUT room.a=a2", "DEL room.b="]);
      expect(await changes.waitFor(2)).toEqual(["PUT room.a=a2", "DEL room.b="]);
      await sub.unsubscribe();
    });

    it("forgets values older than the bucket ttl", async () => {
      const kv = await bus.kv(`ct_${unique()}`, { ttlMs: 300 });
      await kv.put("presence.u1", enc("here"));
      expect(await kv.get("presence.u1")).not.toBeNull();
      const deadline = Date.now() + 10_000;
      // Expiry is the server's own timer; there is no event to wait on, so poll within a bound.
      while ((await kv.get("presence.u1")) !== null) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await kv.keys()).toEqual([]);
    });

    it("rejects invalid subjects", async () => {
      await expect(bus.publish("tt..x", enc(""))).rejects.toThrow(/empty token/);
      await expect(bus.subscribe("tt.a b", () => {})).rejects.toThrow(/whitespace/);
    });

    it("reports health and closes", async () => {
      expect(await bus.healthy()).toBe(true);
      const got = collector<string>();
      const subject = `ct.${unique()}.last`;
      await bus.subscribe(subject, (m) => got.push(dec(m.data)));
      await bus.publish(subject, enc("bye"));
      expect(await got.waitFor(1)).toEqual(["bye"]);
      await bus.close();
      expect(await bus.healthy()).toBe(false);
      await expect(bus.publish(subject, enc("late"))).rejects.toThrow();
      await bus.close(); // idempotent, and afterEach closes again
    });
  });
}
