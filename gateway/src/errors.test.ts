import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { BindError } from "./bind.ts";
import { INTERNAL_MESSAGE, toRestError } from "./errors.ts";
import { MatchError } from "./match.ts";

describe("toRestError", () => {
  it.each([
    [Code.Canceled, 499, "Client Closed Request"],
    [Code.InvalidArgument, 400, "Bad Request"],
    [Code.DeadlineExceeded, 504, "Gateway Timeout"],
    [Code.NotFound, 404, "Not Found"],
    [Code.AlreadyExists, 409, "Conflict"],
    [Code.PermissionDenied, 403, "Forbidden"],
    [Code.ResourceExhausted, 429, "Too Many Requests"],
    [Code.FailedPrecondition, 400, "Bad Request"],
    [Code.Aborted, 409, "Conflict"],
    [Code.OutOfRange, 400, "Bad Request"],
    [Code.Unimplemented, 501, "Not Implemented"],
    [Code.Unavailable, 503, "Service Unavailable"],
    [Code.Unauthenticated, 401, "Unauthorized"],
  ])("Connect code %i → %i %s, keeping the service's message", (code, status, error) => {
    const r = toRestError(new ConnectError("user profile not found", code));
    expect(r).toEqual({
      status,
      body: { statusCode: status, message: "user profile not found", error },
      headers: {},
      internal: false,
    });
  });

  it.each([Code.Unknown, Code.Internal, Code.DataLoss])("Connect code %i → 500 with a generic message", (code) => {
    const r = toRestError(new ConnectError("stack: secret", code));
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ statusCode: 500, message: INTERNAL_MESSAGE, error: "Internal Server Error" });
    expect(r.internal).toBe(true);
  });

  it.each([new Error("secret"), "a string", undefined, { code: 5 }])("anything else (%s) → 500", (thrown) => {
    expect(toRestError(thrown)).toMatchObject({ status: 500, body: { message: INTERNAL_MESSAGE }, internal: true });
  });

  it("maps the gateway's own errors", () => {
    expect(toRestError(new MatchError(405, "Cannot PUT /x", ["GET", "POST"]))).toEqual({
      status: 405,
      body: { statusCode: 405, message: "Cannot PUT /x", error: "Method Not Allowed" },
      headers: { allow: "GET, POST" },
      internal: false,
    });
    expect(toRestError(new MatchError(404, "Cannot GET /x")).body.error).toBe("Not Found");
    expect(toRestError(new BindError("too big", 413)).body).toEqual({
      statusCode: 413,
      message: "too big",
      error: "Payload Too Large",
    });
    expect(toRestError(new BindError("bad", 400, "x")).status).toBe(400);
  });

  it("issue 15: a service's tt-http-status asks for a 4xx no Connect code maps to (422), never for another class", () => {
    const asked = (status: string, code = Code.InvalidArgument) => {
      const err = new ConnectError("this Idempotency-Key was already used with a different request", code);
      err.metadata.set("tt-http-status", status);
      return toRestError(err);
    };
    expect(asked("422")).toMatchObject({ status: 422, body: { statusCode: 422, error: "Unprocessable Entity" } });
    expect(asked("200").status).toBe(400);
    expect(asked("503").status).toBe(400);
    expect(asked("nonsense").status).toBe(400);
    expect(asked("422", Code.Internal).status).toBe(500);
  });
});
