import { Check, ChevronDown } from "lucide-react";
import { Select as RadixSelect } from "radix-ui";
import { forwardRef } from "react";

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps {
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  options: readonly SelectOption[];
  placeholder?: string;
  /** For a form post (Radix renders a native select beside the trigger). */
  name?: string;
  disabled?: boolean;
  required?: boolean;
  /** Set by <Field> so its label names the trigger. */
  id?: string;
  "aria-label"?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}

/**
 * A choice among fixed values (Radix Select): shows each value as words, never its internal name. Put it in a
 * <Field> for its label, or give it an aria-label. Radix forbids "" as an item's value; use a word like "any".
 */
export const Select = forwardRef<HTMLButtonElement, SelectProps>(function Select(
  {
    options,
    placeholder,
    id,
    "aria-label": ariaLabel,
    "aria-describedby": describedBy,
    "aria-invalid": invalid,
    ...root
  },
  ref,
) {
  return (
    <RadixSelect.Root {...root}>
      <RadixSelect.Trigger
        ref={ref}
        id={id}
        className="tt-select__trigger"
        aria-label={ariaLabel}
        aria-describedby={describedBy}
        aria-invalid={invalid}
      >
        <RadixSelect.Value placeholder={placeholder} />
        <RadixSelect.Icon asChild>
          <ChevronDown aria-hidden="true" />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content className="tt-select__content" position="popper" sideOffset={4} collisionPadding={8}>
          <RadixSelect.Viewport>
            {options.map((option) => (
              <RadixSelect.Item
                key={option.value}
                value={option.value}
                disabled={option.disabled}
                className="tt-select__item"
              >
                <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                <RadixSelect.ItemIndicator className="tt-select__item-indicator">
                  <Check aria-hidden="true" />
                </RadixSelect.ItemIndicator>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
});
