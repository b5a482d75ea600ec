// Calls the RPC through the backend's transport. In all-in-one mode that transport runs the kit's
// interceptors in process; distributed, it is Connect (binary) over HTTP/2 by default, gRPC only with
// BACKEND_PROTOCOL=grpc. Either way the gateway sees a message.
import type { DescMethodServerStreaming, DescMethodUnary, Message } from "@bufbuild/protobuf";
import { ConnectError, Code, type Transport } from "@connectrpc/connect";
import { createAsyncIterable } from "@connectrpc/connect/protocol";

/** The RPC could not be called at all (a method kind the gateway does not transcode). */
export class InvokeError extends ConnectError {
  override name = "InvokeError";
}

export interface UnaryResult {
  message: Message;
  header: Headers;
  trailer: Headers;
}

export interface StreamResult {
  header: Headers;
  messages: AsyncIterable<Message>;
  trailer: Headers;
}

/** No deadline unless the caller sets one: REST callers have no way to send it. */
export const DEFAULT_TIMEOUT_MS: number | undefined = undefined;

export async function invokeUnary(
  transport: Transport,
  method: DescMethodUnary,
  input: Message,
  header: Headers,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined = DEFAULT_TIMEOUT_MS,
): Promise<UnaryResult> {
  const res = await transport.unary(method, signal, timeoutMs, header, input);
  return { message: res.message, header: res.header, trailer: res.trailer };
}

export async function invokeServerStream(
  transport: Transport,
  method: DescMethodServerStreaming,
  input: Message,
  header: Headers,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined = DEFAULT_TIMEOUT_MS,
): Promise<StreamResult> {
  const res = await transport.stream(method, signal, timeoutMs, header, createAsyncIterable([input]));
  return { header: res.header, messages: res.message, trailer: res.trailer };
}

/** Client- and bidi-streaming methods have no REST form; rules on them are refused at start. */
export function unsupportedMethodKind(name: string, kind: string): InvokeError {
  return new InvokeError(`${name}: ${kind} methods cannot be transcoded`, Code.Unimplemented);
}
