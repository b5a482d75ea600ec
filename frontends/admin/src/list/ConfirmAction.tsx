import { useErrorText } from "@tt/web-kit";
import { useId, useState, type FormEvent } from "react";
import { useAdminText } from "../i18n.ts";

export interface ActionField {
  name: string;
  label: string;
  /** A checkbox's value is "true" or "false"; a select offers `options` (and "" unless required). */
  type?: "text" | "datetime" | "textarea" | "number" | "select" | "checkbox";
  required?: boolean;
  initial?: string;
  options?: readonly string[];
}

export interface PendingAction {
  /** The action's label (also the dialog's subject in the success message). */
  label: string;
  /** The question asked before anything is sent. */
  question: string;
  fields?: readonly ActionField[];
  destructive?: boolean;
  run: (values: Record<string, string>) => Promise<unknown>;
}

/**
 * Every destructive (or otherwise consequential) action goes through here: the question, optional inputs, then
 * the server's answer — its error message as the spec words it, or a short "done".
 */
export function ConfirmAction({
  action,
  onClose,
  onDone,
}: {
  action: PendingAction;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useAdminText();
  const toText = useErrorText();
  const titleId = useId();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries((action.fields ?? []).map((field) => [field.name, field.initial ?? ""])),
  );
  const [state, setState] = useState<{ kind: "idle" | "busy" | "done" } | { kind: "error"; message: string }>({
    kind: "idle",
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setState({ kind: "busy" });
    try {
      await action.run(values);
      setState({ kind: "done" });
      onDone?.();
    } catch (error) {
      setState({ kind: "error", message: toText(error) });
    }
  }

  return (
    <div className="tt-admin-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
      <form className="tt-card" onSubmit={(event) => void submit(event)}>
        <h2 id={titleId}>{t("confirmTitle")}</h2>
        <p>{action.question}</p>
        {(action.fields ?? []).map((field) => (
          <div key={field.name} className="tt-field">
            <label htmlFor={`${titleId}-${field.name}`}>{field.label}</label>
            {field.type === "checkbox" ? (
              <input
                id={`${titleId}-${field.name}`}
                type="checkbox"
                checked={values[field.name] === "true"}
                onChange={(event) => setValues((v) => ({ ...v, [field.name]: String(event.target.checked) }))}
              />
            ) : field.type === "select" ? (
              <select
                id={`${titleId}-${field.name}`}
                value={values[field.name] ?? ""}
                required={field.required}
                onChange={(event) => setValues((v) => ({ ...v, [field.name]: event.target.value }))}
              >
                {!field.required && <option value="">{t("none")}</option>}
                {(field.options ?? []).map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : field.type === "textarea" ? (
              <textarea
                id={`${titleId}-${field.name}`}
                value={values[field.name] ?? ""}
                required={field.required}
                onChange={(event) => setValues((v) => ({ ...v, [field.name]: event.target.value }))}
              />
            ) : (
              <input
                id={`${titleId}-${field.name}`}
                type={field.type === "datetime" ? "datetime-local" : field.type === "number" ? "number" : "text"}
                value={values[field.name] ?? ""}
                required={field.required}
                onChange={(event) => setValues((v) => ({ ...v, [field.name]: event.target.value }))}
              />
            )}
          </div>
        ))}
        {state.kind === "error" && (
          <p className="tt-error" role="alert">
            {state.message}
          </p>
        )}
        {state.kind === "done" && (
          <p className="tt-success" role="status">
            {t("done", { action: action.label })}
          </p>
        )}
        <div className="tt-admin-dialog__buttons">
          {state.kind === "done" ? (
            <button type="button" className="tt-button" onClick={onClose}>
              {t("dismiss")}
            </button>
          ) : (
            <>
              <button type="button" className="tt-button tt-button--quiet" onClick={onClose}>
                {t("cancel")}
              </button>
              <button
                type="submit"
                className={action.destructive ? "tt-button tt-button--danger" : "tt-button"}
                disabled={state.kind === "busy"}
              >
                {t("confirm")}
              </button>
            </>
          )}
        </div>
      </form>
    </div>
  );
}
