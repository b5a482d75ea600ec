import { Check, ChevronDown } from "lucide-react";
import { Popover as RadixPopover } from "radix-ui";
import { forwardRef, useId, useMemo, useRef, useState, type ReactNode } from "react";

export interface ComboboxOption {
  value: string;
  /** The words shown and searched (a nickname, a name) — never an internal id. */
  label: string;
  /** Drawn before the label (an avatar); decoration, hidden from screen readers by the caller. */
  icon?: ReactNode;
  /** A second line in smaller type ("In the room now", "Your friend"). */
  description?: string | undefined;
}

export interface ComboboxProps {
  value: string;
  onValueChange: (value: string) => void;
  options: readonly ComboboxOption[];
  placeholder?: string;
  /** Shown in the list when nothing matches what was typed. */
  emptyText: string;
  /** Shown instead of the list while the options load. */
  loading?: boolean;
  loadingText?: string;
  disabled?: boolean;
  /** Set by <Field> so its label names the input. */
  id?: string;
  "aria-label"?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
  /** The list's accessible name (a listbox must have one): the field's label, in words. */
  listLabel: string;
  /** The most options drawn at once (the rest are reached by typing). */
  limit?: number;
  /** Told when the list opens (to ask for fresh options) and closes. */
  onOpenChange?: (open: boolean) => void;
  /** Told what is typed, for options searched by the caller (a server search); they are still filtered by label. */
  onTextChange?: (text: string) => void;
}

/**
 * A searchable choice (the ARIA 1.2 combobox with a listbox popup, on a Radix Popover): type to filter the options
 * by their label, arrow keys move, Enter or a click chooses, Escape closes. The input shows the chosen option's
 * label; the value is the option's value. Put it in a <Field> for its label, or give it an aria-label.
 */
export const Combobox = forwardRef<HTMLInputElement, ComboboxProps>(function Combobox(
  {
    value,
    onValueChange,
    options,
    placeholder,
    emptyText,
    loading = false,
    loadingText,
    disabled,
    id,
    "aria-label": ariaLabel,
    "aria-describedby": describedBy,
    "aria-invalid": invalid,
    listLabel,
    limit = 50,
    onOpenChange,
    onTextChange,
  },
  ref,
) {
  const listId = useId();
  const [open, setOpenState] = useState(false);
  const setOpen = (next: boolean) => {
    if (next !== open) onOpenChange?.(next);
    setOpenState(next);
  };
  const [text, setText] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement | null>(null);
  const chosen = options.find((option) => option.value === value);
  const query = (text ?? "").trim().toLocaleLowerCase();
  const shown = useMemo(
    () =>
      (query ? options.filter((option) => option.label.toLocaleLowerCase().includes(query)) : options).slice(0, limit),
    [options, query, limit],
  );
  const activeIndex = Math.min(active, Math.max(shown.length - 1, 0));
  const optionId = (index: number) => `${listId}-${index}`;
  const listed = open && !loading && shown.length > 0;

  const choose = (option: ComboboxOption) => {
    onValueChange(option.value);
    setText(null);
    setOpen(false);
  };
  const openList = () => {
    if (disabled) return;
    setActive(0);
    setOpen(true);
  };

  return (
    <RadixPopover.Root open={open} onOpenChange={setOpen}>
      <RadixPopover.Anchor asChild>
        <div className="tt-combobox">
          <input
            ref={(node) => {
              inputRef.current = node;
              if (typeof ref === "function") ref(node);
              else if (ref) ref.current = node;
            }}
            id={id}
            className="tt-input tt-combobox__input"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listed ? listId : undefined}
            aria-activedescendant={listed ? optionId(activeIndex) : undefined}
            aria-label={ariaLabel}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            autoComplete="off"
            spellCheck={false}
            disabled={disabled}
            placeholder={placeholder}
            value={text ?? chosen?.label ?? ""}
            onChange={(event) => {
              setText(event.target.value);
              onTextChange?.(event.target.value);
              // Typing over a choice takes it back: the value is only ever a chosen option.
              if (value) onValueChange("");
              setActive(0);
              setOpen(true);
            }}
            onClick={openList}
            onBlur={() => setText(null)}
            onKeyDown={(event) => {
              if (event.key === "ArrowDown" || event.key === "ArrowUp") {
                event.preventDefault();
                if (!open) return openList();
                const step = event.key === "ArrowDown" ? 1 : -1;
                setActive((activeIndex + step + shown.length) % Math.max(shown.length, 1));
              } else if (event.key === "Enter" && open) {
                event.preventDefault();
                const option = shown[activeIndex];
                if (option) choose(option);
              } else if (event.key === "Escape" && open) {
                event.preventDefault();
                setOpen(false);
              } else if (event.key === "Home" && open) {
                setActive(0);
              } else if (event.key === "End" && open) {
                setActive(Math.max(shown.length - 1, 0));
              }
            }}
          />
          <ChevronDown className="tt-combobox__icon" aria-hidden="true" />
        </div>
      </RadixPopover.Anchor>
      <RadixPopover.Portal>
        <RadixPopover.Content
          className="tt-combobox__content"
          // The popup is the list, not a dialog (Radix names its content a dialog).
          role="presentation"
          align="start"
          sideOffset={4}
          collisionPadding={8}
          // Focus stays in the input: the list is reached with the arrow keys (aria-activedescendant).
          onOpenAutoFocus={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => event.preventDefault()}
          onInteractOutside={(event) => {
            if (inputRef.current?.parentElement?.contains(event.target as Node)) event.preventDefault();
          }}
        >
          {loading ? (
            <p className="tt-combobox__empty" role="status">
              {loadingText}
            </p>
          ) : shown.length === 0 ? (
            <p className="tt-combobox__empty" role="status">
              {emptyText}
            </p>
          ) : (
            <ul id={listId} role="listbox" className="tt-combobox__list" aria-label={listLabel}>
              {shown.map((option, index) => (
                <li
                  key={option.value}
                  id={optionId(index)}
                  role="option"
                  // Named by the label alone; the second line describes it.
                  aria-labelledby={`${optionId(index)}-label`}
                  aria-describedby={option.description ? `${optionId(index)}-description` : undefined}
                  aria-selected={option.value === value}
                  data-highlighted={index === activeIndex ? "" : undefined}
                  className="tt-select__item tt-combobox__item"
                  // Chosen on mouse down so the input keeps its focus (no blur before the click).
                  onMouseDown={(event) => {
                    event.preventDefault();
                    choose(option);
                  }}
                  onMouseMove={() => index !== activeIndex && setActive(index)}
                >
                  {option.icon}
                  <span className="tt-combobox__label">
                    <span id={`${optionId(index)}-label`}>{option.label}</span>
                    {option.description && (
                      <span id={`${optionId(index)}-description`} className="tt-combobox__description">
                        {option.description}
                      </span>
                    )}
                  </span>
                  {option.value === value && <Check className="tt-select__item-indicator" aria-hidden="true" />}
                </li>
              ))}
            </ul>
          )}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
});
