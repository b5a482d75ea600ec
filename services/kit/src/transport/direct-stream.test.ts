// A stream whose later messages are written directly (direct-stream.ts) reads the same as one Connect wrote whole, for
// every protocol and codec a client may pick, over HTTP/1.1 and HTTP/2.
import { create } from "@bufbuild/protobuf";
import { createClient, type HandlerContext } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { EchoService, EchoStreamResponseSchema } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directStream, directStreams, SharedMessage } from "./direct-stream.ts";
import { serveBothHttp, TRANSPORTS, type BothHttp } from "../test-support/both-http.ts";

/** EchoStream: the first message through Connect, the others directly when the call has a direct stream. */
function routes(seen: { direct: boolean[] }) {
  return connectNodeAdapter({
    contextValues: direct.values,
    routes: (router) =>
      router.service(EchoService, {
        async *echoStream(req, ctx: HandlerContext) {
          const out = directStream(ctx);
          seen.direct.push(out !== undefined);
          yield { text: req.text, index: 0 };
          for (let index = 1; index < req.count; index++) {
            const message = new SharedMessage(
              EchoStreamResponseSchema,
              create(EchoStreamResponseSchema, { text: req.text, index }),
            );
            if (out) expect(out.write(message.frame(out.format))).toBe(true);
            else yield message.message;
          }
        },
      }),
  });
}

const direct = directStreams();
const seen = { direct: [] as boolean[] };
let servers: BothHttp;

beforeAll(async () => {
  servers = await serveBothHttp(direct.wrap(routes(seen)));
});

afterAll(() => servers.close());

describe("direct stream writes", () => {
  it.each(TRANSPORTS)("%s: every message in order, then a clean end", async (name) => {
    const client = createClient(EchoService, servers.transport(name));
    const got: [string, number][] = [];
    for await (const m of client.echoStream({ text: "hi", count: 5 })) got.push([m.text, m.index]);
    expect(got).toEqual([0, 1, 2, 3, 4].map((i) => ["hi", i]));
    expect(seen.direct.at(-1)).toBe(true);
  });
});
