// @tt/web-kit/form — forms with schema validation (react-hook-form + zod): each field's own message beside it,
// and a server's refusal shown on the field it names (the services name the field first: "nickname must …").
export { FormError, SelectField, serverFieldOf, TextField, useServerErrors, useZodForm } from "./form.tsx";
export type { ZodFormOptions } from "./form.tsx";
export * as z from "./z.ts";
// The remotes take react-hook-form from here, so a page holds one copy of it (the shell's) rather than a remote's own.
export { Controller } from "react-hook-form";
export type { FieldPath, FieldValues, PathValue, UseFormReturn } from "react-hook-form";
