import { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ProcessedEventSchema } from "../bus/events.ts";
import { ThrottleWindow, ThrottleWindowSchema } from "../throttle/throttle-window.entity.ts";
import { expectColumns } from "./expect-columns.ts";

let orm: MikroORM;

beforeAll(async () => {
  orm = await MikroORM.init({
    clientUrl: inject("databaseUrl"),
    entities: [ThrottleWindowSchema, ProcessedEventSchema],
  });
});

afterAll(() => orm?.close(true));

describe("expectColumns", () => {
  it("passes for the entity's table and database column names", () => {
    expectColumns(orm, ThrottleWindow, ["key", "window_start", "hits"], "throttle_window");
    expectColumns(orm, ProcessedEventSchema, ["consumer", "event_id", "processed_at"]);
  });

  it("fails naming a column the entity does not have, or another table", () => {
    expect(() => expectColumns(orm, ThrottleWindow, ["key", "windowStart", "hit_count"])).toThrow(
      /windowStart.*hit_count/s,
    );
    expect(() => expectColumns(orm, ThrottleWindow, ["key"], "throttle_windows")).toThrow(/throttle_windows/);
  });
});
