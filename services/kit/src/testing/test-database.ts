// A fresh PostgreSQL database per test suite, so suites never see each other's rows and can run in
// parallel; dropped (connections forced off) afterwards.
import { randomBytes } from "node:crypto";
import { MikroORM } from "@mikro-orm/postgresql";

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
