// The room app's form pieces over @tt/web-kit/form: the fields the kit does not carry (a number, a text area, the
// music providers as a group of checkboxes) bound to a react-hook-form form, each showing its own error.
import { Checkbox, Field, Input, TextArea, useNames } from "@tt/web-kit/ui";
import type { ReactNode } from "react";
import type { FieldPath, FieldValues, PathValue, UseFormReturn } from "@tt/web-kit/form";
import { MUSIC_PROVIDERS } from "../api.ts";

// The kit's fields take a form of any input/output pair; so do these.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyForm<T extends FieldValues> = UseFormReturn<T, any, any>;

function errorOf<T extends FieldValues>(form: AnyForm<T>, name: FieldPath<T>): string | undefined {
  const message = form.formState.errors[name]?.message;
  return typeof message === "string" ? message : undefined;
}

export function NumberField<T extends FieldValues>({
  form,
  name,
  label,
  hint,
  min,
  max,
}: {
  form: AnyForm<T>;
  name: FieldPath<T>;
  label: ReactNode;
  hint?: ReactNode;
  min: number;
  max: number;
}) {
  return (
    <Field label={label} hint={hint} error={errorOf(form, name)}>
      <Input type="number" inputMode="numeric" min={min} max={max} {...form.register(name, { valueAsNumber: true })} />
    </Field>
  );
}

export function TextAreaField<T extends FieldValues>({
  form,
  name,
  label,
  hint,
  rows,
  maxLength,
}: {
  form: AnyForm<T>;
  name: FieldPath<T>;
  label: ReactNode;
  hint?: ReactNode;
  rows?: number;
  maxLength?: number;
}) {
  return (
    <Field label={label} hint={hint} error={errorOf(form, name)}>
      <TextArea rows={rows} maxLength={maxLength} {...form.register(name)} />
    </Field>
  );
}

/** The music providers a room plays from, as words, one checkbox each. */
export function ProvidersField<T extends FieldValues>({
  form,
  name,
  legend,
  hint,
}: {
  form: AnyForm<T>;
  name: FieldPath<T>;
  legend: string;
  hint: string;
}) {
  const names = useNames();
  const hintId = `${String(name)}-hint`;
  // Watched and set through the form itself (react-hook-form stays the kit's one copy: no Controller here).
  const chosen = (form.watch(name) ?? []) as string[];
  const set = (next: string[]) =>
    form.setValue(name, next as PathValue<T, FieldPath<T>>, { shouldDirty: true, shouldValidate: true });
  // One checkbox per provider as a person knows it: values with the same word (SoundCloud's public and signed-in
  // access) are chosen together; in alphabetical order.
  const byLabel = new Map<string, string[]>();
  for (const provider of MUSIC_PROVIDERS) {
    const label = names("provider", provider);
    byLabel.set(label, [...(byLabel.get(label) ?? []), provider]);
  }
  const groups = [...byLabel].sort(([a], [b]) => a.localeCompare(b));
  return (
    <fieldset className="tt-room-fieldset" aria-describedby={hintId}>
      <legend className="tt-field__label">{legend}</legend>
      <p id={hintId} className="tt-field-hint">
        {hint}
      </p>
      <div className="tt-room-checks">
        {groups.map(([label, values]) => (
          <Checkbox
            key={label}
            label={label}
            checked={values.some((value) => chosen.includes(value))}
            onChange={(event) =>
              set(
                event.target.checked
                  ? [...chosen, ...values.filter((value) => !chosen.includes(value))]
                  : chosen.filter((item) => !values.includes(item)),
              )
            }
          />
        ))}
      </div>
    </fieldset>
  );
}
