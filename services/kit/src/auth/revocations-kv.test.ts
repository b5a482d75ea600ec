import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, inject, it } from "vitest";
import type { Bus } from "../bus/bus.ts";
import { createMemoryBus } from "../bus/memory.ts";
import { createNatsBus } from "../bus/nats.ts";
import { createSessionRevocations, REVOCATIONS_BUCKET, type ManagedSessionRevocations } from "./revocations-kv.ts";

const inOneHour = () => new Date(Date.now() + 3600_000);

/** Resolves when `revocations` reports an update for `sessionId`. */
function updated(sessionId: string) {
  let resolve!: () => void;
  const seen = new Promise<void>((r) => (resolve = r));
  return { seen, onUpdate: (sid: string) => sid === sessionId && resolve() };
}

// `peer` is how another process reaches the same bucket: the same in-process bus, or a second NATS connection.
describe.each([
  ["in-process bus", async () => createMemoryBus(), "same"],
  [
    "NATS",
    async () =>
      createNatsBus({ url: inject("natsUrl"), name: "kit-revocations-test", deployment: "kit-revocations-test" }),
    "new connection",
  ],
] as const)("createSessionRevocations over %s", (_name, connect, peerKind) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const open = async (bus: Bus, onUpdate?: (sid: string) => void): Promise<ManagedSessionRevocations> => {
    const revocations = createSessionRevocations(bus, { ttlMs: 3600_000, onUpdate });
    await revocations.start();
    cleanups.push(() => revocations.close());
    return revocations;
  };
  const bus = async () => {
    const b = await connect();
    cleanups.push(() => b.close());
    return b;
  };
  const peer = async (shared: Bus) => (peerKind === "same" ? shared : bus());

  it("refuses a revoked session at once in the revoking process", async () => {
    const revocations = await open(await bus());
    const sid = randomUUID();
    expect(revocations.isRevoked(sid)).toBe(false);
    const pending = revocations.revoke(sid, inOneHour());
    expect(revocations.isRevoked(sid)).toBe(true);
    await pending;
    expect(revocations.isRevoked(randomUUID())).toBe(false);
  });

  it("reaches another process over the bucket, and a process started later", async () => {
    const shared = await bus();
    const sid = randomUUID();
    const watcher = updated(sid);
    const other = await open(await peer(shared), watcher.onUpdate);
    const revoker = await open(shared);
    await revoker.revoke(sid, inOneHour());
    await watcher.seen;
    expect(other.isRevoked(sid)).toBe(true);
    const late = await open(await peer(shared));
    expect(late.isRevoked(sid)).toBe(true);
  });

  it("stores the session's expiry and ignores revocations whose tokens have expired", async () => {
    const shared = await bus();
    const revocations = await open(shared);
    const sid = randomUUID();
    const exp = new Date(Date.now() + 120_000);
    await revocations.revoke(sid, exp);
    const entry = await (await shared.kv(REVOCATIONS_BUCKET)).get(sid);
    expect(JSON.parse(new TextDecoder().decode(entry?.value))).toEqual({ exp: Math.ceil(exp.getTime() / 1000) });

    const stale = randomUUID();
    await (await shared.kv(REVOCATIONS_BUCKET)).put(stale, new TextEncoder().encode(JSON.stringify({ exp: 1 })));
    const later = await open(shared);
    expect(later.isRevoked(stale)).toBe(false);
    await revocations.revoke(randomUUID(), new Date(Date.now() - 1000));
  });

  it("refuses session ids that cannot be bucket keys", async () => {
    const revocations = await open(await bus());
    await expect(revocations.revoke("a b*", inOneHour())).rejects.toThrow(/not a valid key/);
  });
});
