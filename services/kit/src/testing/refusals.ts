// What a test reads of a call that should be refused, one body for every suite that wrote its own: the ConnectError
// (any other error as ConnectError.from makes it), or the parts a suite asserts on. A call that succeeds where a
// refusal was expected fails the test, except with outcomeOf, which says "ok".
import { Code, ConnectError } from "@connectrpc/connect";

/** The ConnectError `call` is refused with; throws when it succeeds. */
export async function refusalOf(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (err) {
    return ConnectError.from(err);
  }
  throw new Error("expected a refusal");
}

/** The code of the refusal: `expect(await codeOf(call)).toBe(Code.NotFound)`. */
export async function codeOf(call: Promise<unknown>): Promise<Code> {
  return (await refusalOf(call)).code;
}

/** The code and message (without the code prefix) of the refusal: `toEqual([Code.NotFound, "no such crate"])`. */
export async function codeAndMessageOf(call: Promise<unknown>): Promise<[Code, string]> {
  const error = await refusalOf(call);
  return [error.code, error.rawMessage];
}

/** "ok" when `call` succeeds, else its refusal as `NotFound: no such crate`: one string for table tests. */
export async function outcomeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "ok";
  } catch (err) {
    const error = ConnectError.from(err);
    return `${Code[error.code]}: ${error.rawMessage}`;
  }
}
