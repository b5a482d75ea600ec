// A fresh PostgreSQL database per test suite, so suites never see each other's rows and can run in
// parallel; dropped (connections forced off) afterwards.
import { randomBytes } from "node:crypto";
import { MikroORM } from "@mikro-orm/postgresql";

/**
 * DATABASE_POOL_MAX of every platform and service host a test starts (the harness, the shared and own e2e
 * platforms): eight services in one all-in-one at `pg`'s default of 10 each could hold 80 connections, and a test
 * run has several platforms on one PostgreSQL (100 connections by default, shared with whatever else runs). 3, not 2,
 * as headroom: a call, an event consumer and the outbox relay of one service may each hold a connection at once.
 */
export const TEST_DATABASE_POOL_MAX = "3";

export interface TestDatabase {
  /** Connection URL of the new database. */
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(baseUrl: string, run: (orm: MikroORM) => Promise<T>): Promise<T> {
  const orm = await MikroORM.init({
    clientUrl: baseUrl,
    entities: [],
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: 1 },
  });
  try {
    return await run(orm);
  } finally {
    await orm.close(true);
  }
}

/** Creates a database with a random name on the server of `baseUrl`. */
export async function createTestDatabase(baseUrl: string): Promise<TestDatabase> {
  const name = `tt_test_${randomBytes(6).toString("hex")}`;
  await admin(baseUrl, (orm) => orm.em.getConnection().execute(`create database "${name}"`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin(baseUrl, (orm) => orm.em.getConnection().execute(`drop database if exists "${name}" with (force)`));
    },
  };
}
