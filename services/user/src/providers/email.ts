// E-mail for verification codes, magic links and password resets: SMTP in production, the dev outbox
// on a laptop.
import { createTransport } from "nodemailer";
import type { DevOutbox } from "./dev-outbox.ts";
import { ProviderError } from "./provider-error.ts";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}

export interface SmtpEmailSenderOptions {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465. */
  smtpUrl: string;
  from: string;
  timeoutMs: number;
}

export interface SmtpEmailSender extends EmailSender {
  /** Closes pooled connections; call on shutdown. */
  close(): void;
}

export function createSmtpEmailSender(options: SmtpEmailSenderOptions): SmtpEmailSender {
  const transport = createTransport({
    url: options.smtpUrl,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
        });
      } catch (error) {
        throw smtpError(error);
      }
    },
    close: () => transport.close(),
  };
}

// Nodemailer's messages can quote the server's reply; the code and reply number say enough and are safe.
function smtpError(error: unknown): ProviderError {
  const code = (error as { code?: unknown }).code;
  const responseCode = (error as { responseCode?: unknown }).responseCode;
  const status = typeof responseCode === "number" ? responseCode : undefined;
  const options = { cause: error };
  switch (code) {
    case "EAUTH":
      return new ProviderError("email", "rejected", "SMTP authentication failed", status, options);
    case "ETIMEDOUT":
      return new ProviderError("email", "timeout", "SMTP server did not answer in time", status, options);
    case "ECONNECTION":
    case "ESOCKET":
    case "EDNS":
    case "ETLS":
      return new ProviderError("email", "unavailable", "SMTP server could not be reached", status, options);
    default:
      // 4xx replies are temporary (try later), 5xx permanent (this message will never go).
      if (status !== undefined && status >= 400 && status < 500) {
        return new ProviderError("email", "unavailable", "SMTP server deferred the message", status, options);
      }
      return new ProviderError("email", "rejected", "SMTP server refused the message", status, options);
  }
}

/** Puts the text part in the dev outbox; HTML is left out because the admin view shows plain text. */
export function createDevEmailSender(outbox: DevOutbox): EmailSender {
  return {
    async send(message) {
      await outbox.add({ channel: "email", to: message.to, subject: message.subject, body: message.text });
    },
  };
}
