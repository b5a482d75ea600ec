import { FormError, SelectField, TextField, useServerErrors, useZodForm } from "@tt/web-kit/form";
import { Button, Checkbox, ConfirmDialog, Dialog, DialogClose, Field, Input, TextArea } from "@tt/web-kit/ui";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useAdminText } from "../i18n.ts";
import {
  actionValues,
  IMAGE_TYPES,
  initialValues,
  schemaOf,
  type ActionField,
  type ActionFiles,
  type ActionValues,
  type FormValue,
} from "./fields.ts";
import { RoomPicker, UserPicker } from "./pickers.tsx";

export interface ActionDialogProps {
  title: string;
  /** What happens, in a sentence (the question before a consequential action). */
  description?: string | undefined;
  fields?: readonly ActionField[] | undefined;
  /** The button that sends it: says what it does ("Ban", "Create", "Save changes"). */
  confirmLabel: string;
  destructive?: boolean | undefined;
  run: (values: ActionValues, files: ActionFiles) => Promise<unknown>;
  /** The action succeeded (the caller tells it as a toast and refreshes its list). */
  onDone: () => void;
  onClose: () => void;
}

/**
 * Every action of the console goes through one of two kit dialogs, open while mounted: a ConfirmDialog when
 * there is nothing to fill in, else a Dialog with a form (schema-checked, the server's refusal on the field it
 * names or above the form). The body scrolls when the form is taller than the screen; the buttons stay in view.
 */
export function ActionDialog(props: ActionDialogProps) {
  const { title, description, fields, confirmLabel, destructive, run, onDone, onClose } = props;
  if (!fields || fields.length === 0) {
    return (
      <ConfirmDialog
        open
        onOpenChange={(open) => !open && onClose()}
        title={title}
        description={description}
        confirmLabel={confirmLabel}
        tone={destructive ? "danger" : "primary"}
        onConfirm={async () => {
          await run({}, {});
          onDone();
        }}
      />
    );
  }
  return <FormDialog {...props} fields={fields} />;
}

function FormDialog({
  title,
  description,
  fields,
  confirmLabel,
  destructive,
  run,
  onDone,
  onClose,
}: ActionDialogProps & { fields: readonly ActionField[] }) {
  const { t } = useAdminText();
  const formId = useId();
  const schema = useMemo(() => schemaOf(fields, t), [fields, t]);
  const form = useZodForm(schema, { defaultValues: initialValues(fields) });
  const { formError, fail, clear } = useServerErrors(form);
  const [files, setFiles] = useState<ActionFiles>({});
  const submitting = form.formState.isSubmitting;
  const submit = form.handleSubmit(async (values) => {
    clear();
    try {
      await run(actionValues(fields, values as Record<string, FormValue>), files);
      onDone();
    } catch (error) {
      fail(error);
    }
  });
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !submitting && onClose()}
      title={title}
      description={description}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary" disabled={submitting}>
              {t("cancel")}
            </Button>
          </DialogClose>
          <Button type="submit" form={formId} variant={destructive ? "danger" : "primary"} busy={submitting}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <form id={formId} className="tt-admin-form" noValidate onSubmit={(event) => void submit(event)}>
        {fields.map((field) =>
          field.type === "image" ? (
            <ImageField
              key={field.name}
              field={field}
              file={files[field.name]}
              onChange={(file) =>
                setFiles(({ [field.name]: _, ...others }) => (file ? { ...others, [field.name]: file } : others))
              }
            />
          ) : (
            <FormField key={field.name} field={field} form={form} />
          ),
        )}
        <FormError message={formError} />
      </form>
    </Dialog>
  );
}

type ActionForm = ReturnType<typeof useZodForm<ReturnType<typeof schemaOf>>>;

function errorOf(form: ActionForm, name: string): string | undefined {
  const message = (form.formState.errors as Record<string, { message?: unknown } | undefined>)[name]?.message;
  return typeof message === "string" ? message : undefined;
}

/** One input of the form, by its type: kit fields throughout (label, hint, error beside it). */
function FormField({ field, form }: { field: ActionField; form: ActionForm }) {
  const error = errorOf(form, field.name);
  switch (field.type) {
    case "select":
      return (
        <SelectField
          form={form}
          name={field.name}
          label={field.label}
          hint={field.hint}
          options={field.options ?? []}
        />
      );
    case "checkbox":
      return (
        <div className="tt-field">
          <Checkbox label={field.label} {...form.register(field.name)} />
          {field.hint && <span className="tt-field-hint">{field.hint}</span>}
        </div>
      );
    case "multi":
      return <MultiField field={field} form={form} error={error} />;
    case "user":
    case "room":
      return <PickerField field={field} form={form} error={error} />;
    case "textarea":
      return (
        <Field label={field.label} hint={field.hint} error={error}>
          <TextArea {...form.register(field.name)} rows={3} />
        </Field>
      );
    default:
      return (
        <TextField
          form={form}
          name={field.name}
          label={field.label}
          hint={field.hint}
          type={field.type === "datetime" ? "datetime-local" : field.type === "number" ? "number" : "text"}
          inputMode={field.type === "money" ? "decimal" : field.type === "number" ? "numeric" : undefined}
          step={field.type === "number" ? 1 : undefined}
          autoComplete="off"
        />
      );
  }
}

/** A person or a room, chosen from what the services find for the typed words (list/pickers.tsx). */
function PickerField({ field, form, error }: { field: ActionField; form: ActionForm; error: string | undefined }) {
  const Picker = field.type === "room" ? RoomPicker : UserPicker;
  const value = form.watch(field.name);
  return (
    <Field label={field.label} hint={field.hint} error={error}>
      <Picker
        value={typeof value === "string" ? value : ""}
        onValueChange={(next) =>
          form.setValue(field.name, next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })
        }
        listLabel={field.label}
      />
    </Field>
  );
}

/** Several fixed values (capabilities, badges): a group of checkboxes under the field's label. */
function MultiField({ field, form, error }: { field: ActionField; form: ActionForm; error: string | undefined }) {
  const chosen = (form.watch(field.name) as string[] | undefined) ?? [];
  const errorId = useId();
  return (
    <fieldset className="tt-field tt-admin-choices" aria-describedby={error ? errorId : undefined}>
      <legend className="tt-field__label">{field.label}</legend>
      <div className="tt-admin-choices__options">
        {(field.options ?? []).map((option) => (
          <Checkbox
            key={option.value}
            label={option.label}
            checked={chosen.includes(option.value)}
            onChange={(event) =>
              form.setValue(
                field.name,
                event.target.checked ? [...chosen, option.value] : chosen.filter((value) => value !== option.value),
                { shouldDirty: true, shouldValidate: form.formState.isSubmitted },
              )
            }
          />
        ))}
      </div>
      {field.hint && <span className="tt-field-hint">{field.hint}</span>}
      {error && (
        <span id={errorId} className="tt-field-error" role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}

/** An image file: the kit's labelled file input, with the chosen image (or the current one) shown beside it. */
function ImageField({
  field,
  file,
  onChange,
}: {
  field: ActionField;
  file: File | undefined;
  onChange: (file: File | undefined) => void;
}) {
  const { t } = useAdminText();
  // The chosen file's preview: one object URL at a time, let go when another is chosen or the form closes.
  const [chosen, setChosen] = useState<string | undefined>();
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    const urls = shown;
    return () => {
      if (urls.current) URL.revokeObjectURL(urls.current);
    };
  }, []);
  const pick = (next: File | undefined) => {
    if (shown.current) URL.revokeObjectURL(shown.current);
    shown.current = next && typeof URL.createObjectURL === "function" ? URL.createObjectURL(next) : undefined;
    setChosen(shown.current);
    onChange(next);
  };
  const preview = (file && chosen) || field.current;
  return (
    <div className="tt-admin-image-field">
      {preview && <img className="tt-admin-image-field__preview" src={preview} alt={t("imagePreview")} />}
      <Field label={field.label} hint={field.hint}>
        <Input type="file" accept={IMAGE_TYPES} onChange={(event) => pick(event.target.files?.[0])} />
      </Field>
    </div>
  );
}
