// A `multipart/form-data` body is read by the query rules, relative to the rule's body: a text part is a
// query parameter by another name, and a file part fills a `tt.common.v1.UploadedFile` field (or adds to a
// repeated one). The files are set on the decoded message directly, so their bytes never pass through
// base64 JSON. A form may name a path-bound field; the path then wins, as it does over a JSON body.
import { create, type DescField, type DescMessage, type JsonObject, type Message } from "@bufbuild/protobuf";
import { reflect, type ReflectList, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import type { BodyBinding } from "./bind-body.ts";
import { assignValue, createNameResolver, type NameResolver, type Target } from "./bind-query.ts";
import { BindError, isLeaf, isUploadedFile } from "./bind-values.ts";

/** One file part of a multipart body. */
export interface FormFile {
  /** The part's form field name. */
  name: string;
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** A parsed `multipart/form-data` body, parts in the order they came. */
export interface FormBody {
  fields: Array<[name: string, value: string]>;
  files: FormFile[];
}

export interface FormBinding {
  /** Whether the body may be a form: it can reach a `tt.common.v1.UploadedFile` field. */
  acceptsForm: boolean;
  /** Resolves a text part's name (when forms are accepted), to pin a decode error on it. */
  resolve: NameResolver | undefined;
  /** Refuses a part that cannot bind (unknown name, file for a non-file field or text for a file field). */
  checkPart(name: string, isFile: boolean): Target;
  /** The JSON of the request message from the form's text parts. */
  fieldsJson(form: FormBody): JsonObject;
  /** Sets the form's file parts on the message decoded from `fieldsJson`. */
  setFiles(input: DescMessage, message: Message, form: FormBody): void;
}

/** Whether a form can reach an UploadedFile field of `desc` by a dotted name (singular messages only). */
export function hasUploadedFileField(desc: DescMessage, seen: Set<DescMessage> = new Set()): boolean {
  seen.add(desc);
  for (const f of desc.fields) {
    if (isUploadedFile(f)) return true;
    if (f.fieldKind === "message" && !isLeaf(f) && !seen.has(f.message) && hasUploadedFileField(f.message, seen)) {
      return true;
    }
  }
  return false;
}

const notAccepted = () => new BindError("multipart/form-data is not accepted here; send application/json", 415);

/** The form binding of a rule's body. */
export function compileFormBinding(input: DescMessage, body: BodyBinding): FormBinding {
  // Form names are relative to the body, as JSON keys are.
  const root = body.wholeBody
    ? input
    : body.field?.fieldKind === "message" && !isLeaf(body.field)
      ? body.field.message
      : undefined;
  const acceptsForm = root !== undefined && hasUploadedFileField(root);
  const resolve = acceptsForm
    ? createNameResolver({ what: "form field", root, prefix: body.field ? [body.field] : [] })
    : undefined;
  const checkPart = (name: string, isFile: boolean): Target => {
    if (!resolve) throw notAccepted();
    const t = resolve(name);
    if (isFile && t.kind !== "file") {
      throw new BindError(`form field "${name}" is not a file field; send it as text`, 400, name);
    }
    if (!isFile && t.kind === "file") {
      throw new BindError(`form field "${name}" takes a file; send it as a file part`, 400, name);
    }
    return t;
  };
  return {
    acceptsForm,
    resolve,
    checkPart,
    fieldsJson(form) {
      if (!resolve) throw notAccepted();
      const json: JsonObject = {};
      const seen = new Set<string>();
      for (const [key, raw] of form.fields) assignValue(json, seen, checkPart(key, false), key, raw, "form field");
      return json;
    },
    setFiles(input, message, form) {
      const seen = new Set<string>();
      for (const file of form.files) {
        const t = checkPart(file.name, true) as Extract<Target, { kind: "file" }>;
        // What a browser sends for a file input left empty.
        if (file.filename === "" && file.content.length === 0) continue;
        const joined = t.path.join(".");
        if (!t.repeated && seen.has(joined)) {
          throw new BindError(`form field "${file.name}" given more than once`, 400, file.name);
        }
        seen.add(joined);
        setFile(input, message, t.fields, {
          content: file.content,
          filename: file.filename,
          contentType: file.contentType,
        });
      }
    },
  };
}

/** Sets (or, for a repeated field, adds) one UploadedFile at the end of `chain`, creating the messages on the way. */
function setFile(
  input: DescMessage,
  message: Message,
  chain: readonly DescField[],
  value: { content: Uint8Array; filename: string; contentType: string },
): void {
  let r: ReflectMessage = reflect(input, message);
  for (let i = 0; i < chain.length - 1; i++) {
    const f = chain[i]!;
    const child = r.get(f) as ReflectMessage;
    if (!r.isSet(f)) r.set(f, child);
    r = child;
  }
  const last = chain[chain.length - 1]!;
  const file = reflect(last.message!, create(last.message!, value));
  if (last.fieldKind === "list") (r.get(last) as ReflectList).add(file);
  else r.set(last, file);
}
