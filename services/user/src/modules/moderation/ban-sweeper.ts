// Temporary bans end by themselves: readers already treat an ended ban as none (isBanActive); the sweeper
// removes the rows and announces tt.user.user.unbanned, so other services learn of the end without polling.
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { LockMode } from "@mikro-orm/core";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import { publishEvent } from "@tt/kit";
import { UserUnbannedSchema } from "@tt/proto/tt/user/v1/events_pb";
import { UserBan } from "./ban.entity.ts";

export const DEFAULT_BAN_SWEEP_INTERVAL_MS = 60_000;
const BATCH = 100;

/**
 * Removes up to `batch` ended bans and writes their unbanned events, in one transaction. Rows another
 * replica is sweeping are skipped (SKIP LOCKED), so replicas never announce one end twice. Returns the
 * uuids of the accounts whose ban ended.
 */
export async function sweepExpiredBans(orm: MikroORM, now = new Date(), batch = BATCH): Promise<string[]> {
  return orm.em.fork().transactional(async (em) => {
    const ended = await em.find(
      UserBan,
      { endsAt: { $ne: null, $lte: now } },
      { orderBy: { endsAt: "asc" }, limit: batch, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
    for (const ban of ended) {
      publishEvent(em, UserUnbannedSchema, {
        uuid: ban.user.id,
        unbannedByUuid: "",
        expired: true,
        at: timestampFromDate(ban.endsAt ?? now),
      });
      em.remove(ban);
    }
    return ended.map((ban) => ban.user.id);
  });
}

export interface BanSweeperOptions {
  orm: MikroORM;
  logger: Logger;
  signal: AbortSignal;
  intervalMs?: number;
}

/**
 * Sweeps ended bans every `intervalMs` until `signal` aborts. A round that fails is logged and retried at
 * the next tick; rounds never overlap. `stopped` settles once the last round has finished.
 */
export function startBanSweeper(opts: BanSweeperOptions): { stopped: Promise<void> } {
  const intervalMs = opts.intervalMs ?? DEFAULT_BAN_SWEEP_INTERVAL_MS;
  const stopped = (async () => {
    while (!opts.signal.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, intervalMs);
        // Never keep a process alive just to sweep.
        timer.unref();
        opts.signal.addEventListener("abort", done, { once: true });
        function done() {
          clearTimeout(timer);
          opts.signal.removeEventListener("abort", done);
          resolve();
        }
      });
      if (opts.signal.aborted) break;
      try {
        // Drain: a round takes a batch; a backlog (after downtime) is cleared before the next wait.
        while (!opts.signal.aborted && (await sweepExpiredBans(opts.orm)).length === BATCH);
      } catch (err) {
        opts.logger.warn({ err }, "ban sweep failed; retrying at the next interval");
      }
    }
  })();
  return { stopped };
}
