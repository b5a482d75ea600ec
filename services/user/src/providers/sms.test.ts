import { afterEach, describe, expect, it } from "vitest";
import { createInMemoryDevOutbox } from "./dev-outbox.ts";
import { ProviderError } from "./provider-error.ts";
import { createDevSmsSender, createHttpSmsSender } from "./sms.ts";
import { decodeBasicAuth, startFakeServer, type FakeHandler, type FakeServer } from "./testing/fake-http-server.ts";

describe("HTTP SMS sender (Twilio Messages API shape)", () => {
  let fake: FakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  async function setup(handler: FakeHandler, timeoutMs = 5_000) {
    fake = await startFakeServer(handler);
    return createHttpSmsSender({
      baseUrl: fake.url,
      accountSid: "AC123",
      authToken: "sms-secret",
      from: "+15005550006",
      timeoutMs,
    });
  }

  it("posts To, From and Body as a form with basic auth to the account's Messages.json", async () => {
    const sender = await setup(() => ({ status: 201, json: { sid: "SM1", status: "queued" } }));
    await sender.send({ to: "+14155550100", body: "Your code is 123456" });

    expect(fake?.requests).toHaveLength(1);
    const [request] = fake!.requests;
    expect(request).toMatchObject({ method: "POST", path: "/2010-04-01/Accounts/AC123/Messages.json" });
    expect(decodeBasicAuth(request?.headers.authorization)).toEqual({ user: "AC123", password: "sms-secret" });
    expect(request?.form).toEqual({ To: "+14155550100", From: "+15005550006", Body: "Your code is 123456" });
  });

  it("reports a refused number as rejected with the provider's message", async () => {
    const sender = await setup(() => ({ status: 400, json: { code: 21211, message: "Invalid 'To' Phone Number" } }));
    await expect(sender.send({ to: "+1", body: "x" })).rejects.toMatchObject({
      provider: "sms",
      kind: "rejected",
      status: 400,
      reason: "Invalid 'To' Phone Number",
    });
  });

  it("reports a 5xx as unavailable and never puts the auth token in the error", async () => {
    const sender = await setup(() => ({ status: 503, text: "upstream down" }));
    const error = await sender.send({ to: "+14155550100", body: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "unavailable", status: 503 });
    expect(String((error as Error).message)).not.toContain("sms-secret");
  });

  it("gives up after the configured timeout", async () => {
    // Long enough for the request to reach the fake on a busy machine (it records it), far shorter than the default.
    const sender = await setup(() => "hang", 1_000);
    await expect(sender.send({ to: "+14155550100", body: "x" })).rejects.toMatchObject({
      provider: "sms",
      kind: "timeout",
    });
    expect(fake?.requests).toHaveLength(1);
  });
});

describe("development SMS sender", () => {
  it("puts the message in the dev outbox", async () => {
    const outbox = createInMemoryDevOutbox();
    await createDevSmsSender(outbox).send({ to: "+14155550100", body: "Your code is 1" });
    expect(await outbox.list({ to: "+14155550100", limit: 1 })).toMatchObject([
      { channel: "sms", body: "Your code is 1" },
    ]);
  });
});
