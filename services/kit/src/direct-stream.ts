// Server streams that send the same message to many callers (a live room's patches to its listeners) can write it
// to each caller's response themselves, encoded once for all of them. Connect's per-message path (serialize,
// envelope, compress, write: a chain of async generators per call) costs tens of microseconds per message and caller;
// a direct write of bytes encoded once costs a few (bench:stage). The call stays Connect's: the headers, a refusal
// before the first message, the first message and the end of the stream (end-stream message or trailers) are
// written by Connect, and between them the implementation writes enveloped messages through a DirectStream. It may
// start once its first message has been yielded: Connect's Node adapter writes each message before it asks the
// implementation for the next, so a direct write never overtakes one of Connect's, and Connect writes nothing
// while the implementation waits. A call that did not come through the host's Node handler (the in-process
// transport, a test's direct call) has no DirectStream and yields its messages as usual.
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

export interface DirectStream {
  readonly format: WireFormat;
  /** Writes one enveloped message; false (nothing written) when the caller is too far behind or gone. */
  write(frame: Uint8Array): boolean;
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

/** The call's direct stream, when it has one (see the file's header for when it may be written). */
export function directStream(ctx: HandlerContext): DirectStream | undefined {
  const res = ctx.values.get(kNodeResponse);
  if (!res) return undefined;
  const format: WireFormat = /\+json\b/i.test(ctx.requestHeader.get("content-type") ?? "") ? "json" : "binary";
  const buffered = (): number =>
    "stream" in res && res.stream ? res.stream.writableLength : (res as ServerResponse).writableLength;
  return {
    format,
    write(frame) {
      if (res.destroyed || res.writableEnded || buffered() > DIRECT_STREAM_MAX_BUFFERED) return false;
      (res as ServerResponse).write(frame);
      return true;
    },
  };
}

/** A message as an uncompressed envelope (flags 0, big-endian length, payload): Connect, gRPC and gRPC-Web alike. */
export function envelope(payload: Uint8Array): Uint8Array {
  const frame = new Uint8Array(5 + payload.length);
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
