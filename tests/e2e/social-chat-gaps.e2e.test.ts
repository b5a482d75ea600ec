// Issue 28, finding 2: chat sent while NATS is down was stored and acknowledged but never reached the open join
// streams, which stayed open and showed no gap. Now every change of a room's chat carries the room's chat sequence
// and the join stream says where the room's chat is when its events fell behind the database, so a client loads the
// history again. Here a platform of the test's own (all-in-one or distributed, as the project says) runs on a NATS
// the test stops and starts: a bot (the bot kit's room session) listens in a room, NATS goes down, a person sends
// messages (each acknowledged), NATS comes back, and the bot's room chat ends up with every acknowledged message, in
// order, once — with no message sent after the outage to reveal the hole.
import { randomUUID } from "node:crypto";
import { signIn, signUpBot, type Bot, type RoomSession } from "@tt/bot";
import { eventually, startTestNatsServer, type TestNatsServer } from "@tt/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultMode, startTestPlatform, type TestPlatform } from "./support/platform.ts";

const run = randomUUID().slice(0, 8);
let platform: TestPlatform;
let bot: Bot | undefined;
let session: RoomSession | undefined;

/** A nats-server of the test's own (same port and store across a restart), stopped and started again. */
let natsServer: TestNatsServer | undefined;
let natsUp = false;
const startNats = async () => {
  await natsServer!.start();
  natsUp = true;
};
const stopNats = async () => {
  natsUp = false;
  await natsServer?.stop();
};

beforeAll(async () => {
  natsServer = await startTestNatsServer();
  natsUp = true;
  platform = await startTestPlatform({ natsUrl: natsServer!.url });
}, 300_000);

afterAll(async () => {
  session?.close();
  bot?.close();
  // The platform closes its connections to NATS cleanly only while NATS is up.
  if (natsServer && !natsUp) await startNats();
  await platform?.close();
  await natsServer?.dispose();
}, 120_000);

describe(`chat while NATS is down (${defaultMode()})`, () => {
  it("a listener's open stream ends up showing every acknowledged message, in order, once", async () => {
    const owner = await platform.signUp();
    const made = await signUpBot({ baseUrl: platform.url, ownerToken: owner.token, nickname: `GapBot${run}` });
    const created = await platform.call("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: `Chat gaps ${run}` },
    });
    expect(created.status).toBe(200);
    const room = created.body.room as { uuid: string; slug: string };
    const send = async (text: string) => {
      const res = await platform.call("POST", `/api/social-service/rooms/${room.uuid}/messages`, {
        token: owner.token,
        body: { message: { uuid: randomUUID(), message: text } },
      });
      expect([res.status, text]).toEqual([200, text]);
    };

    bot = await signIn({ baseUrl: platform.url, token: made.token });
    // What the bot was handed live (onChat), and what its room chat shows (messages()).
    const handed: string[] = [];
    const statuses: string[] = [];
    session = bot.join(room.slug, {
      onChat: (event) => void (event.kind.case === "created" && handed.push(event.kind.value.message)),
      onStatus: (status) => void statuses.push(status),
    });
    await session.waitFor(() => true, { what: "the first state" });
    await send("before the outage");
    await eventually("the first message live", async () => (handed.includes("before the outage") ? true : undefined));

    await stopNats();
    const stopped = Date.now();
    const during = ["during 1", "during 2", "during 3", "during 4", "during 5"];
    for (const text of during) await send(text);
    await startNats();
    const back = Date.now();

    const expected = ["before the outage", ...during];
    const shown = await eventually(
      "every acknowledged message in the bot's room chat",
      async () => {
        const texts = session!.messages().map((m) => m.message);
        return texts.length >= expected.length ? texts : undefined;
      },
      { timeoutMs: 20_000 },
    );
    const caughtUp = Date.now();
    expect(shown).toEqual(expected);
    // Handed on once each: the live one, then the ones the reload found.
    expect(handed).toEqual(expected);
    // The stream stayed open throughout: nothing but the first join.
    expect(statuses.filter((s) => s === "reconnecting")).toEqual([]);
    process.stdout.write(
      `chat gaps (${defaultMode()}): NATS down ${back - stopped} ms; the bot showed all ${expected.length} messages ` +
        `${caughtUp - back} ms after NATS was back\n`,
    );
  }, 120_000);
});
