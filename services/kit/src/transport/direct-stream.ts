// Server streams that send the same message to many callers (a live room's patches to its listeners) can write it
// to each caller's response themselves, encoded once for all of them: a message through a server's per-call pipeline
// (serialize, envelope, write) costs tens of microseconds per caller with Connect's handler; a direct write of bytes
// encoded once costs a few (bench:stage). The call stays its handler's: the headers, a refusal before the first
// message, the first message and the end of the stream (end-stream message or trailers) are written by the handler
// (the kit's own for server streams, server-streams.ts, or Connect's for a request it passes on), and between them the
// implementation writes enveloped messages through a DirectStream. It may start once its first message has been
// yielded: both handlers write each message before they ask the implementation for the next, so a direct write never
// overtakes one of theirs, and they write nothing while the implementation waits. The kit's handler can also hold the
// call open after the implementation returns (`hold`). A call that did not come through the host's Node handler (the
// in-process transport, a test's direct call) has no DirectStream and yields its messages as usual.
import type { ServerResponse } from "node:http";
import { toBinary, toJsonString, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { createContextKey, createContextValues, type ContextValues, type HandlerContext } from "@connectrpc/connect";
import type { NodeRequestHandler } from "./server.ts";

type NodeRequest = Parameters<NodeRequestHandler>[0];
type NodeResponse = Parameters<NodeRequestHandler>[1];

/** How a call's messages are encoded on the wire: by the request's content type (`…+json` is JSON). */
export type WireFormat = "binary" | "json";

/** The Node response of a call that came through the host's Node handler. */
const kNodeResponse = createContextKey<NodeResponse | undefined>(undefined, { description: "node response" });

/**
 * A caller's buffered bytes beyond which a direct write is refused: the caller is too far behind (a stalled
 * connection), and the implementation ends its stream (the client rejoins and gets a fresh state).
 */
export const DIRECT_STREAM_MAX_BUFFERED = 1 << 20;

/** A call held open after its implementation returned (DirectStream.hold). */
export interface HeldCall {
  /** Ends the call (a clean end of the stream), after what was written. */
  end(): void;
}

/** Set by the kit's own server-stream handler (server-streams.ts): a call it serves can be held open. */
export const kHoldCall = createContextKey<((onEnd: () => void) => HeldCall) | undefined>(undefined, {
  description: "hold the call open",
});

export interface DirectStream {
  readonly format: WireFormat;
  /** Writes one enveloped message; false (nothing written) when the caller is too far behind or gone. */
  write(frame: Uint8Array): boolean;
  /**
   * Keeps the call open after the implementation returns, so nothing of the implementation has to wait for the
   * stream's end (a generator suspended for hours holds its whole chain of frames): the stream goes on with direct
   * writes until `end()`, or until the call ends otherwise (the caller went away, its deadline, shutdown). `onEnd`
   * runs once when the call is over, either way. Call it before the implementation returns, after its first message.
   * Only a call served by the kit's own handler can be held (undefined otherwise: keep yielding).
   */
  readonly hold?: (onEnd: () => void) => HeldCall;
}

/**
 * Lets a host's calls know their Node response: the Connect adapter takes `values` as its `contextValues` option, and
 * the host serves the adapter through `wrap`.
 */
export function directStreams(): {
  values: (req: NodeRequest) => ContextValues;
  wrap: (handler: NodeRequestHandler) => NodeRequestHandler;
} {
  const responses = new WeakMap<NodeRequest, NodeResponse>();
  return {
    values: (req) => createContextValues().set(kNodeResponse, responses.get(req)),
    wrap: (handler) => (req, res) => {
      responses.set(req, res);
      handler(req, res);
    },
  };
}

/** Whether a response can no longer be written: ended, or its connection or HTTP/2 stream is gone. */
export function responseGone(res: NodeResponse): boolean {
  if (res.writableEnded) return true;
  // An HTTP/2 compatibility response has no `destroyed` of its own: its stream says.
  return "stream" in res && res.stream ? res.stream.destroyed || res.stream.closed : (res as ServerResponse).destroyed;
}

/** The call's direct stream, when it has one (see the file's header for when it may be written). */
export function directStream(ctx: HandlerContext): DirectStream | undefined {
  const res = ctx.values.get(kNodeResponse);
  if (!res) return undefined;
  const format: WireFormat = /\+json\b/i.test(ctx.requestHeader.get("content-type") ?? "") ? "json" : "binary";
  const buffered = (): number =>
    "stream" in res && res.stream ? res.stream.writableLength : (res as ServerResponse).writableLength;
  return {
    format,
    hold: ctx.values.get(kHoldCall),
    write(frame) {
      if (responseGone(res) || buffered() > DIRECT_STREAM_MAX_BUFFERED) return false;
      (res as ServerResponse).write(frame);
      return true;
    },
  };
}

/** A message as an envelope (flags, big-endian length, payload): Connect, gRPC and gRPC-Web alike; flags 0 for a message. */
export function envelope(payload: Uint8Array, flags = 0): Uint8Array {
  const frame = new Uint8Array(5 + payload.length);
  frame[0] = flags;
  new DataView(frame.buffer).setUint32(1, payload.length);
  frame.set(payload, 5);
  return frame;
}

/** One message sent to many callers: its envelope in each wire format, encoded on first need and then reused. */
export class SharedMessage<Desc extends DescMessage> {
  private binary: Uint8Array | undefined;
  private json: Uint8Array | undefined;

  constructor(
    readonly schema: Desc,
    readonly message: MessageShape<Desc>,
  ) {}

  frame(format: WireFormat): Uint8Array {
    if (format === "json") {
      return (this.json ??= envelope(new TextEncoder().encode(toJsonString(this.schema, this.message))));
    }
    return (this.binary ??= envelope(toBinary(this.schema, this.message)));
  }
}
