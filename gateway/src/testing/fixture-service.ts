// A real implementation of tt.fixture.v1.FixtureService for the gateway's tests and benchmark: it answers
// with what it was sent, so a test can see exactly what the gateway bound.
import { createHash } from "node:crypto";
import { Code, ConnectError, type ConnectRouter, type ServiceImpl } from "@connectrpc/connect";
import { codeFromString } from "@connectrpc/connect/protocol-connect";
import type { UploadedFile } from "@tt/proto/tt/common/v1/upload_pb";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";

/** Thrown by Fail("throw"): detail that must never reach a REST caller. */
export const SECRET_DETAIL = "db password is hunter2";

function summarize(field: string, file: UploadedFile) {
  return {
    field,
    filename: file.filename,
    contentType: file.contentType,
    size: BigInt(file.content.length),
    sha256: createHash("sha256").update(file.content).digest("hex"),
  };
}

export const fixtureImpl: ServiceImpl<typeof FixtureService> = {
  hello() {
    return { service: "fixture", count: 0 };
  },
  echo(req, ctx) {
    const headers: Record<string, string> = {};
    ctx.requestHeader.forEach((v, k) => (headers[k] = v));
    ctx.responseHeader.set("etag", '"echo"');
    ctx.responseHeader.set("x-internal-secret", "not for callers");
    return { tenant: req.tenant, thing: req.thing, headers };
  },
  getSpecialThing() {
    return { kind: "special" };
  },
  getThing(req) {
    return { thing: { id: req.id } };
  },
  updateThing(req) {
    return { thing: req.thing, updateMask: req.updateMask };
  },
  deleteThing() {
    return {};
  },
  searchThings(req) {
    return { things: [{ id: req.query, int32Value: req.limit, repeatedColor: req.colors }], count: req.colors.length };
  },
  getFile(req) {
    return { bucket: req.bucket, path: req.path };
  },
  getShelf(req) {
    return { name: req.name, thing: { id: req.name } };
  },
  archiveShelf(req) {
    return { name: req.name, reason: req.reason, archived: true };
  },
  fail(req) {
    if (req.code === "throw") throw new Error(SECRET_DETAIL);
    const code = codeFromString(req.code) ?? Code.Unknown;
    // A throttled call tells the caller when to come back; the second header must not cross the gateway.
    const metadata =
      code === Code.ResourceExhausted ? { "retry-after": "30", "x-internal-detail": "secret" } : undefined;
    throw new ConnectError(req.message || "failed", code, metadata);
  },
  download(req, ctx) {
    ctx.responseHeader.set("cache-control", "public, max-age=31536000, immutable");
    // Every byte value, so a JSON or text rendering on the way would show.
    const data = Uint8Array.from({ length: 256 }, (_, i) => i);
    return { body: { contentType: req.name.endsWith(".m3u8") ? "application/vnd.apple.mpegurl" : "video/mp2t", data } };
  },
  upload(req) {
    const files = [
      ...(req.file ? [summarize("file", req.file)] : []),
      ...req.attachments.map((f) => summarize("attachments", f)),
      ...(req.meta?.cover ? [summarize("meta.cover", req.meta.cover)] : []),
    ];
    return {
      files,
      kind: req.kind,
      size: req.size,
      colors: req.colors,
      title: req.meta?.title ?? "",
      nested: req.meta?.nested,
    };
  },
  async *streamThings(req) {
    for (let index = 0; index < req.count; index++) {
      yield { index };
      await Promise.resolve();
    }
    if (req.failCode) throw new ConnectError("stream failed", codeFromString(req.failCode) ?? Code.Unknown);
  },
};

export function fixtureRoutes(router: ConnectRouter): void {
  router.service(FixtureService, fixtureImpl);
}
