import { z } from "@tt/web-kit/form";
import type { SelectOption } from "@tt/web-kit/ui";
import type { AdminText } from "../i18n.ts";

/** One input of an action's form. Its name is the request field it fills, so a server's message lands on it. */
export interface ActionField {
  name: string;
  label: string;
  /**
   * text, a textarea, a whole number, an amount of money (typed "4.99", sent as cents), a local date-time, one
   * fixed value (`options`, a picker), several fixed values (`options`, checkboxes), a yes/no checkbox, or an image
   * file (the run function receives it among its files, not its values; never required), a person or a room (a
   * picker searching by nickname or e-mail, or by name; the value is the chosen one's uuid).
   */
  type?:
    "text" | "textarea" | "number" | "money" | "datetime" | "select" | "multi" | "checkbox" | "image" | "user" | "room";
  required?: boolean;
  /** As the run function receives it: checkboxes "true"/"false", several values comma-separated, money in cents. */
  initial?: string;
  /** The choices of a picker or of checkboxes, as words. */
  options?: readonly SelectOption[];
  hint?: string;
  /** An image field's current image (an edit form shows it until another is chosen). */
  current?: string;
  /** A check of its own: the value and the message when it fails. */
  pattern?: { test: RegExp; message: string };
}

/** What the form holds for each field: strings, a boolean for a checkbox, a list for several values. */
export type FormValue = string | boolean | string[];

/** What an action's run function receives: every field as a string (see ActionField.initial). */
export type ActionValues = Record<string, string>;

/** The image files chosen in an action's form, by field name (a field left alone is absent). */
export type ActionFiles = Record<string, File>;

/** The image types the services take (PNG, JPEG, WebP, GIF). */
export const IMAGE_TYPES = "image/png,image/jpeg,image/webp,image/gif";

/** A chosen file as the services' upload message (tt.common.v1.UploadedFile). */
export async function uploadOf(file: File) {
  return { content: new Uint8Array(await file.arrayBuffer()), filename: file.name, contentType: file.type };
}

/** The fields the form itself holds (an image stays beside it, as a file). */
function formFields(fields: readonly ActionField[]): readonly ActionField[] {
  return fields.filter((field) => field.type !== "image");
}

const WHOLE = /^-?\d+$/;
const AMOUNT = /^\d+([.,]\d{1,2})?$/;

/** The schema of a form of these fields: required ones filled, numbers whole, amounts amounts, dates dates. */
export function schemaOf(fields: readonly ActionField[], t: AdminText) {
  const shape: Record<string, z.ZodType> = {};
  for (const field of formFields(fields)) {
    if (field.type === "checkbox") {
      shape[field.name] = z.boolean();
      continue;
    }
    if (field.type === "multi") {
      shape[field.name] = field.required ? z.array(z.string()).min(1, t("required")) : z.array(z.string());
      continue;
    }
    let text = z.string().trim();
    if (field.required) text = text.min(1, t("required"));
    let checked: z.ZodType<string> = text;
    if (field.type === "number") checked = text.refine((v) => v === "" || WHOLE.test(v), t("wholeNumber"));
    else if (field.type === "money") checked = text.refine((v) => v === "" || AMOUNT.test(v), t("amount"));
    else if (field.type === "datetime")
      checked = text.refine((v) => v === "" || !Number.isNaN(new Date(v).getTime()), t("dateTime"));
    if (field.pattern) {
      const { test, message } = field.pattern;
      checked = checked.refine((v) => v === "" || test.test(v), message);
    }
    shape[field.name] = checked;
  }
  return z.object(shape);
}

/** The form's starting values from the fields' `initial` (as the run function would receive them). */
export function initialValues(fields: readonly ActionField[]): Record<string, FormValue> {
  return Object.fromEntries(
    formFields(fields).map((field) => {
      const initial = field.initial ?? "";
      if (field.type === "checkbox") return [field.name, initial === "true"];
      if (field.type === "multi") return [field.name, initial ? initial.split(",").filter(Boolean) : []];
      if (field.type === "money") return [field.name, initial === "" ? "" : (Number(initial) / 100).toFixed(2)];
      return [field.name, initial];
    }),
  );
}

/** The form's values as the run function receives them. */
export function actionValues(fields: readonly ActionField[], values: Record<string, FormValue>): ActionValues {
  return Object.fromEntries(
    formFields(fields).map((field) => {
      const value = values[field.name];
      if (field.type === "checkbox") return [field.name, String(value === true)];
      if (field.type === "multi") return [field.name, Array.isArray(value) ? value.join(",") : ""];
      const text = typeof value === "string" ? value.trim() : "";
      if (field.type === "money") {
        return [field.name, text === "" ? "" : String(Math.round(Number(text.replace(",", ".")) * 100))];
      }
      return [field.name, typeof value === "string" ? value : ""];
    }),
  );
}
