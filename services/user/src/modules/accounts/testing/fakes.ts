// Fakes of the outside world the accounts area talks to: a real SMTP server and a Discord stand-in on
// 127.0.0.1, both recording what they were sent. Shared by the tier-1 and the end-to-end tests.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { startFakeServer, type FakeServer } from "../../../providers/testing/fake-http-server.ts";

export interface ReceivedMail {
  to: string[];
  data: string;
}

export interface FakeSmtp {
  env: Record<string, string>;
  received: ReceivedMail[];
  /** Resolves with the next (or an already received, not yet taken) mail to `to`. */
  next(to: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiting: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        // Quoted-printable soft line breaks would split long links; undo them so tests can read the text.
        const data = Buffer.concat(chunks)
          .toString("utf8")
          .replace(/=\r?\n/g, "")
          .replace(/=3D/g, "=");
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), data };
        received.push(mail);
        const i = waiting.findIndex((w) => mail.to.includes(w.to));
        if (i >= 0) {
          taken.add(mail);
          waiting.splice(i, 1)[0]!.resolve(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, EMAIL_FROM: "Turntable <no-reply@example.test>" },
    received,
    next(to) {
      const ready = received.find((m) => !taken.has(m) && m.to.includes(to));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiting.push({ to, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The reset code from a reset e-mail. */
export function resetCodeOf(mail: ReceivedMail): string {
  const match = /enter the code ([A-Za-z0-9_-]{43})/.exec(mail.data);
  if (!match) throw new Error(`no reset code in the mail:\n${mail.data}`);
  return match[1]!;
}

export interface FakeDiscordUser {
  id: string;
  username: string;
  global_name?: string;
  email?: string;
  verified?: boolean;
}

export interface FakeDiscord {
  server: FakeServer;
  env: Record<string, string>;
  /** An authorization code that Discord would trade for a token of `user`. */
  codeFor(user: FakeDiscordUser): string;
}

/**
 * Discord's token and @me endpoints. A code from `codeFor` is exchanged once for the access token
 * `at-<code>`; any other code, or a token it never issued, is refused the way Discord refuses them.
 */
export async function startFakeDiscord(): Promise<FakeDiscord> {
  const users = new Map<string, FakeDiscordUser>();
  const used = new Set<string>();
  let next = 0;
  const server = await startFakeServer((req) => {
    if (req.method === "POST" && req.path === "/api/v10/oauth2/token") {
      const code = req.form.code ?? "";
      if (!users.has(code) || used.has(code)) return { status: 400, json: { error: "invalid_grant" } };
      used.add(code);
      return {
        status: 200,
        json: { access_token: `at-${code}`, token_type: "Bearer", expires_in: 604800, scope: "identify email" },
      };
    }
    if (req.method === "GET" && req.path === "/api/v10/users/@me") {
      const token = (req.headers.authorization ?? "").replace(/^Bearer at-/, "");
      const user = users.get(token);
      if (!user) return { status: 401, json: { message: "401: Unauthorized", code: 0 } };
      return { status: 200, json: user };
    }
    return { status: 404, json: { message: "404: Not Found" } };
  });
  return {
    server,
    env: { DISCORD_BASE_URL: server.url, DISCORD_CLIENT_ID: "tt-client", DISCORD_CLIENT_SECRET: "tt-secret" },
    codeFor(user) {
      const code = `code-${++next}-${user.id}`;
      users.set(code, user);
      return code;
    },
  };
}
