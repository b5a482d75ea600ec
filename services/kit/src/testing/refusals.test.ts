import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { codeAndMessageOf, codeOf, outcomeOf, refusalOf } from "./refusals.ts";

const refused = () => Promise.reject(new ConnectError("no such crate", Code.NotFound));

describe("refusals", () => {
  it("read a refusal as its ConnectError, its code, or its code and message", async () => {
    const error = await refusalOf(refused());
    expect(error).toBeInstanceOf(ConnectError);
    expect([error.code, error.rawMessage]).toEqual([Code.NotFound, "no such crate"]);
    expect(await codeOf(refused())).toBe(Code.NotFound);
    expect(await codeAndMessageOf(refused())).toEqual([Code.NotFound, "no such crate"]);
    expect(await codeOf(Promise.reject(new Error("boom")))).toBe(Code.Unknown);
  });

  it("fail the test when the call succeeds", async () => {
    await expect(refusalOf(Promise.resolve({}))).rejects.toThrow("expected a refusal");
    await expect(codeOf(Promise.resolve({}))).rejects.toThrow("expected a refusal");
    await expect(codeAndMessageOf(Promise.resolve({}))).rejects.toThrow("expected a refusal");
  });

  it("outcomeOf says ok for a success and Code: message for a refusal", async () => {
    expect(await outcomeOf(Promise.resolve({}))).toBe("ok");
    expect(await outcomeOf(refused())).toBe("NotFound: no such crate");
  });
});
