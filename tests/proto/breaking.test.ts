// `buf breaking` (run by `npm run lint:proto`, so by `npm test`) compares the protos with the checked-in image
// proto/breaking-baseline.binpb: a change that would break gRPC clients and bots (a renamed field, a removed
// RPC) is refused until the baseline is refreshed on purpose (`npm run proto:baseline`).
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const buf = path.join(root, "node_modules/.bin/buf");
const baseline = path.join(root, "proto/breaking-baseline.binpb");

/** Runs `buf breaking proto` in `cwd` against the checked-in baseline: its exit code and what it printed. */
function breaking(cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(buf, ["breaking", "proto", "--against", baseline], { cwd, timeout: 20_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

const copies: string[] = [];

/** A copy of the workspace's protos (and buf.yaml, with the same google-proto-files module) to change freely. */
function copyProtos(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "tt-buf-breaking-"));
  copies.push(dir);
  cpSync(path.join(root, "proto/tt"), path.join(dir, "proto/tt"), { recursive: true });
  cpSync(path.join(root, "buf.yaml"), path.join(dir, "buf.yaml"));
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

function edit(dir: string, file: string, from: string, to: string): void {
  const full = path.join(dir, "proto", file);
  const text = readFileSync(full, "utf8");
  expect(text, `${file} contains the text to change`).toContain(from);
  writeFileSync(full, text.replace(from, to));
}

afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("buf breaking against proto/breaking-baseline.binpb", () => {
  it("accepts the protos as they are", async () => {
    expect(await breaking(root)).toEqual({ code: 0, output: "" });
  });

  it("issue 10: refuses a renamed field (gRPC clients and bots would break)", async () => {
    const dir = copyProtos();
    edit(
      dir,
      "tt/user/v1/auth_service.proto",
      "message LoginRequest {\n  string email = 1 [(tt.options.v1.field).max_length = 320];\n  string password = 2",
      "message LoginRequest {\n  string email = 1 [(tt.options.v1.field).max_length = 320];\n  string passphrase = 2",
    );
    const result = await breaking(dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('Field "2" on message "LoginRequest" changed name from "password" to "passphrase"');
  });

  it("issue 10: refuses a removed RPC", async () => {
    const dir = copyProtos();
    edit(
      dir,
      "tt/user/v1/auth_service.proto",
      "  rpc Hello(HelloRequest) returns (HelloResponse) {",
      "  rpc Hi(HelloRequest) returns (HelloResponse) {",
    );
    const result = await breaking(dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('Previously present RPC "Hello" on service "AuthService" was deleted');
  });
});
