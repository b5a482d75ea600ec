import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { createInMemoryDevOutbox } from "./dev-outbox.ts";
import { createDevEmailSender, createSmtpEmailSender, type SmtpEmailSender } from "./email.ts";
import { ProviderError } from "./provider-error.ts";

interface Received {
  auth: { username: string | undefined; password: string | undefined }[];
  envelopes: { from: string; to: string[]; data: string }[];
}

// A real SMTP server on 127.0.0.1 that records logins and messages; plain text, as a local relay would be.
async function startFakeSmtp(options: { password?: string; refuseRecipient?: string } = {}) {
  const received: Received = { auth: [], envelopes: [] };
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      received.auth.push({ username: auth.username, password: auth.password ?? undefined });
      if (auth.password !== (options.password ?? "secret")) return callback(new Error("Invalid credentials"));
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      if (address.address === options.refuseRecipient) {
        return callback(Object.assign(new Error("No such user"), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.envelopes.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("SMTP e-mail sender", () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setup(options: { password?: string; refuseRecipient?: string; smtpPassword?: string } = {}) {
    const fake = await startFakeSmtp(options);
    cleanups.push(fake.close);
    const sender: SmtpEmailSender = createSmtpEmailSender({
      smtpUrl: `smtp://mailer:${options.smtpPassword ?? "secret"}@127.0.0.1:${fake.port}`,
      from: "Turntable <no-reply@tt.example>",
      timeoutMs: 5_000,
    });
    cleanups.push(() => sender.close());
    return { fake, sender };
  }

  it("logs in with the URL's credentials and sends text and HTML from EMAIL_FROM", async () => {
    const { fake, sender } = await setup();
    await sender.send({ to: "dj@example.com", subject: "Your code", text: "Code: 123456", html: "<b>123456</b>" });

    expect(fake.received.auth).toEqual([{ username: "mailer", password: "secret" }]);
    expect(fake.received.envelopes).toHaveLength(1);
    const [mail] = fake.received.envelopes;
    expect(mail?.from).toBe("no-reply@tt.example");
    expect(mail?.to).toEqual(["dj@example.com"]);
    expect(mail?.data).toMatch(/^Subject: Your code\r?$/m);
    expect(mail?.data).toMatch(/^From: Turntable <no-reply@tt\.example>\r?$/m);
    expect(mail?.data).toContain("Code: 123456");
    expect(mail?.data).toContain("<b>123456</b>");
  });

  it("reports refused credentials as a rejected ProviderError without the password", async () => {
    const { fake, sender } = await setup({ smtpPassword: "wrong-pass" });
    const error = await sender.send({ to: "dj@example.com", subject: "s", text: "t" }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: "email", kind: "rejected", status: 535 });
    expect((error as Error).message).not.toContain("wrong-pass");
    expect(fake.received.envelopes).toEqual([]);
  });

  it("reports a refused recipient as rejected with the SMTP reply code", async () => {
    const { sender } = await setup({ refuseRecipient: "gone@example.com" });
    await expect(sender.send({ to: "gone@example.com", subject: "s", text: "t" })).rejects.toMatchObject({
      provider: "email",
      kind: "rejected",
      status: 550,
    });
  });

  it("reports an SMTP server that is not there as unavailable", async () => {
    const fake = await startFakeSmtp();
    await fake.close();
    const sender = createSmtpEmailSender({
      smtpUrl: `smtp://mailer:secret@127.0.0.1:${fake.port}`,
      from: "no-reply@tt.example",
      timeoutMs: 5_000,
    });
    cleanups.push(() => sender.close());
    await expect(sender.send({ to: "dj@example.com", subject: "s", text: "t" })).rejects.toMatchObject({
      provider: "email",
      kind: "unavailable",
    });
  });
});

describe("development e-mail sender", () => {
  it("puts the message in the dev outbox", async () => {
    const outbox = createInMemoryDevOutbox();
    await createDevEmailSender(outbox).send({ to: "dj@example.com", subject: "Your code", text: "Code: 1", html: "x" });
    expect(await outbox.list({ limit: 5 })).toMatchObject([
      { channel: "email", to: "dj@example.com", subject: "Your code", body: "Code: 1" },
    ]);
  });
});
