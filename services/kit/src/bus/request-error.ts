// One error type for a failed `Bus.request`, whichever adapter carried it, so callers can tell "nobody is
// there" (retry later, or fail over) from "it answered with an error" (do not retry blindly).

export type RequestFailure =
  /** Nobody answered within the timeout. */
  | "timeout"
  /** Nobody listens on the subject at all (NATS says so at once instead of waiting for the timeout). */
  | "no-responders"
  /** The reply handler threw; `message` is its error message. */
  | "handler";

export class RequestError extends Error {
  constructor(
    readonly subject: string,
    readonly failure: RequestFailure,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "RequestError";
  }
}

/** Header names of an error reply; the same ones the NATS service framework (`@nats-io/services`) uses. */
export const errorHeader = "Nats-Service-Error";
export const errorCodeHeader = "Nats-Service-Error-Code";
