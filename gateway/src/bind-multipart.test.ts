import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  Color,
  EchoRequestSchema,
  UploadRequestSchema,
  type UploadRequest,
} from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { BindError } from "./bind-values.ts";
import { binding } from "./testing/bindings.ts";

const echoPut = binding(EchoRequestSchema, "/echo", "*");

describe("multipart forms", () => {
  const upload = binding(UploadRequestSchema, "/uploads", "*");
  const uploadKind = binding(UploadRequestSchema, "/uploads/{kind}", "*");
  const uploadMeta = binding(UploadRequestSchema, "/uploads/{kind}/meta", "meta");
  const file = (name: string, bytes: number[], filename = "f", contentType = "application/octet-stream") => ({
    name,
    filename,
    contentType,
    content: new Uint8Array(bytes),
  });

  it("accepts forms only where the body can reach an UploadedFile field", () => {
    expect(upload.acceptsForm).toBe(true);
    expect(uploadMeta.acceptsForm).toBe(true);
    expect(binding(UploadRequestSchema, "/uploads/{kind}/x", "size").acceptsForm).toBe(false);
    expect(binding(UploadRequestSchema, "/uploads").acceptsForm).toBe(false);
    expect(echoPut.acceptsForm).toBe(false);
    expect(() => echoPut.bindForm([], "", { fields: [], files: [] })).toThrow(
      expect.objectContaining({ status: 415 }) as Error,
    );
  });

  it("binds text parts like query values and file parts as UploadedFile messages", () => {
    const m = upload.bindForm([], "", {
      fields: [
        ["kind", "k"],
        ["size", "-3"],
        ["colors", "COLOR_GREEN"],
        ["colors", "1"],
        ["meta.nested.color", "COLOR_BLUE"],
      ],
      files: [file("file", [1, 2]), file("attachments", [3], "a", "text/plain"), file("meta.cover", [4])],
    }) as UploadRequest;
    expect(m.kind).toBe("k");
    expect(m.size).toBe(-3);
    expect(m.colors).toEqual([Color.GREEN, Color.RED]);
    expect(m.file).toMatchObject({ content: new Uint8Array([1, 2]), filename: "f" });
    expect(m.attachments).toHaveLength(1);
    expect(m.attachments[0]).toMatchObject({ content: new Uint8Array([3]), filename: "a", contentType: "text/plain" });
    expect(m.meta?.cover?.content).toEqual(new Uint8Array([4]));
    expect(m.meta?.nested?.color).toBe(Color.BLUE);
  });

  it("lets path variables win over form fields, and reads body-field forms relative to the field", () => {
    const m = uploadKind.bindForm(["path"], "", { fields: [["kind", "form"]], files: [] }) as UploadRequest;
    expect(m.kind).toBe("path");
    const meta = uploadMeta.bindForm(["k"], "size=4", {
      fields: [["title", "t"]],
      files: [file("cover", [9])],
    }) as UploadRequest;
    expect(meta).toMatchObject({ kind: "k", size: 4, meta: { title: "t", cover: { content: new Uint8Array([9]) } } });
    expect(() => uploadMeta.checkFormPart("kind", false)).toThrow(/unknown form field "kind"/);
  });

  it.each<[string, string, boolean, RegExp]>([
    ["unknown", "nope", false, /unknown form field "nope"/],
    ["unknown nested", "meta.nope", true, /unknown form field "meta.nope"/],
    ["file for text", "size", true, /"size" is not a file field/],
    ["text for file", "file", false, /"file" takes a file/],
    ["text for a file inside a message", "meta.cover", false, /"meta.cover" takes a file/],
    ["a message", "meta", false, /is a message or map/],
  ])("checkFormPart refuses %s", (_, name, isFile, message) => {
    expect(() => upload.checkFormPart(name, isFile)).toThrow(BindError);
    expect(() => upload.checkFormPart(name, isFile)).toThrow(message);
  });

  it("names the form field whose value does not decode", () => {
    expect(() => upload.bindForm([], "", { fields: [["size", "1e99"]], files: [] })).toThrow(
      expect.objectContaining({ status: 400, field: "size" }) as Error,
    );
    expect(() => uploadKind.bindForm(["k"], "", { fields: [["meta.nested.amount", "x"]], files: [] })).toThrow(
      expect.objectContaining({ status: 400, field: "meta.nested.amount" }) as Error,
    );
  });

  it("property: any int32 and string survive a form as they do a query string", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.string(), (size, kind) => {
        const m = upload.bindForm([], "", {
          fields: [
            ["size", String(size)],
            ["kind", kind],
          ],
          files: [],
        }) as UploadRequest;
        expect([m.size, m.kind]).toEqual([size, kind]);
      }),
    );
  });
});
