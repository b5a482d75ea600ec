// The in-process transport on its own: a call that its caller abandons must end as Canceled without ever
// leaving a promise nobody handles (issue 9 defect 1: the handler's rejection used to end the process).
import { setImmediate as nextMacrotask } from "node:timers/promises";
import {
  Code,
  ConnectError,
  createClient,
  createMethodImplSpec,
  type Interceptor,
  type MethodImplSpec,
} from "@connectrpc/connect";
import { EchoService } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { kLogger } from "../context.ts";
import { CALL_OVER } from "../errors.ts";
import { createInProcessTransport } from "./in-process-transport.ts";
import { methodKey } from "./route-capture.ts";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

function transportWith(echo: MethodImplSpec["impl"], interceptors: Interceptor[] = []) {
  const spec = createMethodImplSpec(EchoService.method.echo, echo as never);
  const methods = new Map<string, MethodImplSpec>([[methodKey(EchoService.method.echo), spec]]);
  return createClient(EchoService, createInProcessTransport({ methods, interceptors }));
}

async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "ok";
  } catch (err) {
    return Code[ConnectError.from(err).code];
  }
}

describe("in-process transport: abandoned calls", () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  beforeEach(() => {
    rejections.length = 0;
    process.on("unhandledRejection", onRejection);
  });
  afterEach(() => {
    process.off("unhandledRejection", onRejection);
  });

  it("issue 9 defect 1: does not start the handler when the caller left during an interceptor", async () => {
    const caller = new AbortController();
    let started = 0;
    // Like token verification: the interceptor awaits, and meanwhile the client closes the connection.
    const slowCheck: Interceptor = (next) => async (req) => {
      caller.abort();
      await nextMacrotask();
      return next(req);
    };
    const client = transportWith(() => {
      started++;
      throw new ConnectError("email or password missing in request", Code.InvalidArgument);
    }, [slowCheck]);
    expect(await outcome(client.echo({}, { signal: caller.signal }))).toBe("Canceled");
    await nextMacrotask();
    expect(started).toBe(0);
    expect(rejections).toEqual([]);
  });

  it.each([
    ["a refusal", new ConnectError("no such voucher", Code.NotFound), []],
    ["an unexpected error", new Error("connection lost"), ["connection lost"]],
  ])(
    "issue 9 defect 1: a handler that fails with %s after its caller left leaves no unhandled rejection",
    async (_, failure, logged) => {
      const caller = new AbortController();
      const running = deferred<never>();
      const entered = deferred<void>();
      const lines: string[] = [];
      const logger = pino({ level: "error" }, { write: (line: string) => lines.push(line) });
      const withLogger: Interceptor = (next) => (req) => {
        req.contextValues.set(kLogger, logger);
        return next(req);
      };
      const client = transportWith(() => {
        entered.resolve();
        return running.promise;
      }, [withLogger]);
      const call = outcome(client.echo({}, { signal: caller.signal }));
      await entered.promise;
      caller.abort();
      expect(await call).toBe("Canceled");
      // The handler's own failure comes later, when nobody waits for it any more; only a bug is logged.
      running.reject(failure);
      await nextMacrotask();
      await nextMacrotask();
      expect(rejections).toEqual([]);
      expect(lines.map((l) => (JSON.parse(l) as { err: { message: string } }).err.message)).toEqual(logged);
    },
  );

  it("still answers with the handler's outcome, and turns a synchronous throw into the call's error", async () => {
    const ok = transportWith(() => ({ text: "hi" }));
    expect((await ok.echo({ text: "hi" })).text).toBe("hi");
    const throwing = transportWith(() => {
      throw new ConnectError("bad", Code.InvalidArgument);
    });
    expect(await outcome(throwing.echo({}))).toBe("InvalidArgument");
  });
});

describe("in-process transport: the end of a call", () => {
  it("aborts the call's signal with the shared CALL_OVER once answered (no DOMException per call)", async () => {
    let signal: AbortSignal | undefined;
    const client = transportWith(((req: { text: string }, ctx: { signal: AbortSignal }) => {
      signal = ctx.signal;
      return { text: req.text };
    }) as never);
    expect((await client.echo({ text: "hi" })).text).toBe("hi");
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(CALL_OVER);
    expect(ConnectError.from(signal?.reason).code).toBe(Code.Canceled);
  });
});
