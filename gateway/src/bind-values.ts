// What every binding stage shares: the two error types, which fields take their value from one string, and
// how one string becomes proto3 JSON. Everything is turned into proto3 JSON and decoded by protobuf-es
// (`fromJson`), so the JSON forms of enums, 64-bit integers and well-known types are the library's, not a
// second copy.
import { ScalarType, type DescField, type DescMessage, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { UploadedFileSchema } from "@tt/proto/tt/common/v1/upload_pb";

/** Input that cannot become the request message: 400, or 413 for a body over the limit. */
export class BindError extends Error {
  override name = "BindError";
  constructor(
    message: string,
    readonly status: 400 | 413 | 415 = 400,
    /** The field or parameter at fault, when there is one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** A rule whose path variables, body, response body or query names cannot work; found at start. */
export class BindingDefinitionError extends Error {
  override name = "BindingDefinitionError";
}

/** Reads with unknown JSON fields rejected; the registry resolves `google.protobuf.Any`. */
export const defaultJsonReadOptions = { ignoreUnknownFields: false } as const;

/** The message a file part fills. */
export const UPLOADED_FILE_TYPE = UploadedFileSchema.typeName;

const WKT_STRING_FORM = new Set(["google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.FieldMask"]);

/** Whether a message is written as one string in JSON (a timestamp, duration, field mask or wrapper). */
export function isLeafMessage(desc: DescMessage): boolean {
  return WKT_STRING_FORM.has(desc.typeName) || isWrapperDesc(desc);
}

/** Whether a field can take its value from a single string (path variable or query value). */
export function isLeaf(field: DescField): boolean {
  if (field.fieldKind === "scalar" || field.fieldKind === "enum") return true;
  if (field.fieldKind === "message") return isLeafMessage(field.message);
  return false;
}

/** Whether a field holds one or more `tt.common.v1.UploadedFile` messages. */
export function isUploadedFile(field: DescField): boolean {
  return (
    (field.fieldKind === "message" || (field.fieldKind === "list" && field.listKind === "message")) &&
    field.message.typeName === UPLOADED_FILE_TYPE
  );
}

const TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** The JSON value for one string given to a leaf field (or one element of a repeated one). */
function stringToJson(
  name: string,
  raw: string,
  scalar: ScalarType | undefined,
  enumOrMessage: "enum" | "message" | undefined,
  message?: DescMessage,
): JsonValue {
  if (enumOrMessage === "enum") return /^-?\d+$/.test(raw) ? Number(raw) : raw;
  if (enumOrMessage === "message") {
    if (message && isWrapperDesc(message)) {
      const inner = message.fields[0]!;
      return stringToJson(name, raw, inner.scalar ?? undefined, undefined);
    }
    return raw;
  }
  if (scalar === ScalarType.BOOL) {
    if (TRUE.has(raw)) return true;
    if (FALSE.has(raw)) return false;
    throw new BindError(`invalid value for ${name}: "${raw}" is not a bool`, 400, name);
  }
  // Numbers stay strings: proto3 JSON accepts them for every numeric type and fromJson checks the range.
  return raw;
}

/**
 * The JSON value of one string given to `field` (one element of a list, one value of a map); bools as Go's
 * ParseBool, enums by name or number. `name` is what the caller typed, for the error message.
 */
export function leafJson(field: DescField, name: string, raw: string): JsonValue {
  const kind =
    field.fieldKind === "list" ? field.listKind : field.fieldKind === "map" ? field.mapKind : field.fieldKind;
  switch (kind) {
    case "scalar":
      return stringToJson(name, raw, field.scalar ?? undefined, undefined);
    case "enum":
      return stringToJson(name, raw, undefined, "enum");
    case "message":
      return stringToJson(name, raw, undefined, "message", field.message);
  }
}

/** Sets `value` at a JSON key path, creating the objects on the way. */
export function setPath(root: JsonObject, path: readonly string[], value: JsonValue): void {
  let obj = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    let next = obj[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) obj[key] = next = {};
    obj = next as JsonObject;
  }
  const last = path[path.length - 1]!;
  // A map key may be "__proto__": assigning it would set the object's prototype instead of adding an entry.
  if (last === "__proto__")
    Object.defineProperty(obj, last, { value, enumerable: true, writable: true, configurable: true });
  else obj[last] = value;
}
