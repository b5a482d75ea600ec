import type { InputHTMLAttributes } from "react";

export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: "text" | "email" | "password" | "tel";
  autoComplete?: string;
  inputMode?: InputHTMLAttributes<HTMLInputElement>["inputMode"];
  required?: boolean;
  /** Shown under the input and announced with it. */
  hint?: string;
  /** Ids of other elements that describe the input (announced before the hint). */
  describedBy?: string;
  invalid?: boolean;
}

/** A labelled input of the sign-in forms. */
export function TextField(props: TextFieldProps) {
  const { id, label, value, onChange, type = "text", hint, describedBy, invalid, ...input } = props;
  const hintId = hint === undefined ? undefined : `${id}-hint`;
  const described = [describedBy, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="tt-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        aria-describedby={described}
        aria-invalid={invalid}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...input}
      />
      {hint !== undefined && (
        <span id={hintId} className="tt-field-hint">
          {hint}
        </span>
      )}
    </div>
  );
}
