// Issue 23, finding 5: a row made on first use ("find, then insert") made two at once when the same first call
// came from several callers at once, and all but one answered 500 on the primary key. Each test fires the
// same creating call from many callers at once and expects every answer 2xx and one row as the result.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, u, type Answer, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await sharedPlatform();
});

/** `n` copies of one call, all sent before any answer is read. */
async function atOnce(n: number, send: (i: number) => Promise<Answer>): Promise<Answer[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => send(i)));
}

const statuses = (answers: Answer[]) => [...new Set(answers.map((a) => a.status))];

describe("concurrent first calls of a new user (issue 23)", () => {
  it("50 concurrent first POST /users/profile of a new user all answer 200", async () => {
    const { user, token } = await platform.signUp();
    const answers = await atOnce(50, (i) =>
      platform.call("POST", u("/users/profile"), { token, body: { bio: `bio ${i}` } }),
    );
    expect(
      statuses(answers),
      answers
        .filter((a) => a.status !== 200)
        .map((a) => JSON.stringify(a.body))
        .slice(0, 3)
        .join("\n"),
    ).toEqual([200]);
    const after = await platform.call("GET", u("/users/profile"), { token });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ uuid: user.uuid });
    expect(answers.map((a) => a.body.bio)).toContain(after.body.bio);
  });

  it("50 concurrent first PUT /users/profile/user-data of a new user all answer 200", async () => {
    const { token } = await platform.signUp();
    const answers = await atOnce(50, () =>
      platform.call("PUT", u("/users/profile/user-data"), {
        token,
        body: { audioQuality: "high", language: "es" },
      }),
    );
    expect(statuses(answers), JSON.stringify(answers.find((a) => a.status !== 200)?.body)).toEqual([200]);
    const after = await platform.call("GET", u("/users/profile/user-data"), { token });
    expect(after.body).toMatchObject({ audioQuality: "high", language: "es" });
  });

  it("50 concurrent first POST /users/user-socials of a new user all answer 200", async () => {
    const { token } = await platform.signUp();
    const answers = await atOnce(50, () =>
      platform.call("POST", u("/users/user-socials"), { token, body: { website: "https://example.com/dj" } }),
    );
    expect(statuses(answers), JSON.stringify(answers.find((a) => a.status !== 200)?.body)).toEqual([200]);
  });
});

describe("concurrent identical creates elsewhere (issue 23)", () => {
  it("20 concurrent identical POST /user-book-contact uploads all answer 200 and leave one book", async () => {
    const { token } = await platform.signUp();
    const { user: friend } = await platform.signUp();
    const book = { contacts: [{ name: "Friend", emails: [friend.email], phoneNumbers: ["+1 212 555 0100"] }] };
    const answers = await atOnce(20, () =>
      platform.call("POST", "/api/room-service/user-book-contact", { token, body: book }),
    );
    expect(statuses(answers), JSON.stringify(answers.find((a) => a.status !== 200)?.body)).toEqual([200]);
    const stored = await platform.call("GET", "/api/room-service/user-book-contact", { token });
    expect(stored.body).toMatchObject({ total: 2 });
  });
});
