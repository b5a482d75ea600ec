// SMS for phone sign-in codes, through an API shaped like Twilio's Messages API; the dev outbox otherwise.
import type { DevOutbox } from "./dev-outbox.ts";
import { basicAuth, requestJson } from "./provider-http.ts";

export interface SmsMessage {
  /** E.164, for example +14155550100. */
  to: string;
  body: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

export interface HttpSmsSenderOptions {
  /** https://api.twilio.com or a compatible gateway. */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** The sending number (E.164) or messaging service id the account allows. */
  from: string;
  timeoutMs: number;
}

export function createHttpSmsSender(options: HttpSmsSenderOptions): SmsSender {
  const url = `${options.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  return {
    async send(message) {
      await requestJson({
        provider: "sms",
        method: "POST",
        url,
        headers: { authorization: basicAuth(options.accountSid, options.authToken) },
        form: { To: message.to, From: options.from, Body: message.body },
        timeoutMs: options.timeoutMs,
      });
    },
  };
}

export function createDevSmsSender(outbox: DevOutbox): SmsSender {
  return {
    async send(message) {
      await outbox.add({ channel: "sms", to: message.to, body: message.body });
    },
  };
}
