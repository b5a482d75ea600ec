import { zodResolver } from "@hookform/resolvers/zod";
import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { ErrorMessage, Field, Input, Select, type SelectOption } from "@tt/web-kit/ui";
import { useCallback, useState, type InputHTMLAttributes, type ReactNode } from "react";
import {
  Controller,
  useForm,
  type FieldPath,
  type FieldValues,
  type Path,
  type UseFormProps,
  type UseFormReturn,
} from "react-hook-form";
import { config, type z } from "zod";

// No eval: zod compiles object schemas with `new Function` when it may, and probes whether it may by calling it;
// the pages' Content-Security-Policy has no 'unsafe-eval', so the probe is refused and reported as a violation
// even though zod catches it. Jitless parsing is what the page would fall back to anyway.
config({ jitless: true });

export type ZodFormOptions<T extends FieldValues, O extends FieldValues = T> = Omit<
  UseFormProps<T, unknown, O>,
  "resolver" | "formControl"
>;

/** A form whose values are checked by `schema` (on blur, then on every change of a field already shown wrong). */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  options?: ZodFormOptions<z.input<S>, z.output<S>>,
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  return useForm<z.input<S>, unknown, z.output<S>>({
    mode: "onTouched",
    ...options,
    resolver: zodResolver(schema as never) as never,
  });
}

/**
 * The form field a server's message is about: the services answer an invalid argument with the field's JSON
 * name or path first ("nickname must be at most 32 characters", "profile.nickname …"). Undefined when the
 * message names none of `fields`.
 */
export function serverFieldOf(message: string, fields: readonly string[]): string | undefined {
  const named = /^([A-Za-z_][\w.[\]"]*)\s/.exec(message)?.[1];
  if (!named) return undefined;
  // The message reaches the form through errorText, which capitalises it ("Slug already exists"): the field's
  // name is matched whatever the case of its first letter.
  const first = named.charAt(0).toLowerCase() + named.slice(1);
  const last = first.split(".").at(-1)?.replace(/\[.*$/, "");
  // The text shown has its first letter capitalised (spec 002 §8: "Nickname must …"), so the name is compared
  // without regard to case.
  const same = (a: string, b: string | undefined) => b !== undefined && a.toLowerCase() === b.toLowerCase();
  return fields.find((field) => same(field, first) || same(field, last));
}

/**
 * Shows a failed submission where it belongs: on the field the server's message names, or above the form.
 * `fail(error)` is the mutation's onError; `formError` the message for <FormError>.
 */
export function useServerErrors<T extends FieldValues>(form: UseFormReturn<T, unknown, never> | UseFormReturn<T>) {
  const errorText = useErrorText();
  const [formError, setFormError] = useState<string | undefined>(undefined);
  const fail = useCallback(
    (error: unknown) => {
      const message = errorText(error);
      const fields = Object.keys(form.getValues());
      const field = serverFieldOf(message, fields);
      if (field) {
        form.setError(field as Path<T>, { type: "server", message }, { shouldFocus: true });
        setFormError(undefined);
      } else {
        setFormError(message);
      }
    },
    [errorText, form],
  );
  const clear = useCallback(() => setFormError(undefined), []);
  return { formError, fail, clear };
}

/** A form-level error, announced as soon as it appears. */
export function FormError({ message }: { message: string | undefined }) {
  return message ? <ErrorMessage>{message}</ErrorMessage> : null;
}

/** A labelled text input bound to a form field, showing that field's error. */
export function TextField<T extends FieldValues>({
  form,
  name,
  label,
  hint,
  ...input
}: {
  form: UseFormReturn<T, unknown, never> | UseFormReturn<T>;
  name: FieldPath<T>;
  label: ReactNode;
  hint?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "form">) {
  const error = form.formState.errors[name]?.message;
  return (
    <Field label={label} hint={hint} error={typeof error === "string" ? error : undefined}>
      <Input {...input} {...form.register(name)} />
    </Field>
  );
}

/** A labelled picker bound to a form field (fixed values shown as words). */
export function SelectField<T extends FieldValues>({
  form,
  name,
  label,
  hint,
  options,
  placeholder,
}: {
  form: UseFormReturn<T, unknown, never> | UseFormReturn<T>;
  name: FieldPath<T>;
  label: ReactNode;
  hint?: ReactNode;
  options: readonly SelectOption[];
  placeholder?: string;
}) {
  const { t } = useAppTranslation("common");
  const error = form.formState.errors[name]?.message;
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Field label={label} hint={hint} error={typeof error === "string" ? error : undefined}>
          <Select
            value={field.value as string}
            onValueChange={field.onChange}
            options={options}
            placeholder={placeholder ?? t("ui.choose")}
            name={field.name}
          />
        </Field>
      )}
    />
  );
}
