import { Slider as RadixSlider, Switch as RadixSwitch, Tabs as RadixTabs } from "radix-ui";
import { useId, type ReactNode } from "react";

/** Tabs (Radix): arrow keys move between tabs, each tab shows its panel. */
export function Tabs({
  value,
  defaultValue,
  onValueChange,
  children,
  className,
}: {
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  children: ReactNode;
  className?: string;
}) {
  return (
    <RadixTabs.Root value={value} defaultValue={defaultValue} onValueChange={onValueChange} className={className}>
      {children}
    </RadixTabs.Root>
  );
}

export function TabList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <RadixTabs.List className="tt-tabs__list" aria-label={label}>
      {children}
    </RadixTabs.List>
  );
}

/**
 * One tab; `count` shows a number beside its label (unread messages, items), said to screen readers as
 * `countLabel` ("3 unread") when given.
 */
export function Tab({
  value,
  children,
  count,
  countLabel,
}: {
  value: string;
  children: ReactNode;
  count?: number;
  countLabel?: string;
}) {
  const shown = count !== undefined && count > 0;
  return (
    <RadixTabs.Trigger value={value} className="tt-tabs__trigger">
      {children}
      {shown && (
        <span className="tt-tabs__count" aria-hidden={countLabel ? "true" : undefined}>
          {count > 99 ? "99+" : count}
        </span>
      )}
      {shown && countLabel && <span className="tt-visually-hidden">, {countLabel}</span>}
    </RadixTabs.Trigger>
  );
}

/**
 * One tab's panel. `keepMounted` keeps it in the page while another tab shows (hidden, out of the accessibility
 * tree): for a panel that must go on listening, like a chat counting what arrives while you look elsewhere.
 */
export function TabPanel({
  value,
  children,
  keepMounted = false,
}: {
  value: string;
  children: ReactNode;
  keepMounted?: boolean;
}) {
  return (
    <RadixTabs.Content value={value} className="tt-tabs__panel" {...(keepMounted ? { forceMount: true } : {})}>
      {children}
    </RadixTabs.Content>
  );
}

/** An on/off setting with its label (Radix Switch). */
export function Switch({
  label,
  checked,
  onCheckedChange,
  disabled,
  name,
}: {
  label: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  name?: string;
}) {
  const id = useId();
  return (
    <span className="tt-switch-field">
      <RadixSwitch.Root
        id={id}
        className="tt-switch"
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        name={name}
      >
        <RadixSwitch.Thumb className="tt-switch__thumb" />
      </RadixSwitch.Root>
      <label htmlFor={id}>{label}</label>
    </span>
  );
}

/** A value on a range (Radix Slider): arrow keys step, Page keys jump, Home and End go to the ends. */
export function Slider({
  label,
  value,
  onValueChange,
  min = 0,
  max = 100,
  step = 1,
  disabled,
  valueText,
}: {
  /** The slider's accessible name. */
  label: string;
  value: number;
  onValueChange: (value: number) => void;
  min?: number;
  max?: number;
  step?: number;
  disabled?: boolean;
  /** How the value is read out ("40 %"). */
  valueText?: string;
}) {
  return (
    <RadixSlider.Root
      className="tt-slider"
      value={[value]}
      onValueChange={(values) => onValueChange(values[0] ?? min)}
      min={min}
      max={max}
      step={step}
      disabled={disabled}
    >
      <RadixSlider.Track className="tt-slider__track">
        <RadixSlider.Range className="tt-slider__range" />
      </RadixSlider.Track>
      <RadixSlider.Thumb className="tt-slider__thumb" aria-label={label} aria-valuetext={valueText} />
    </RadixSlider.Root>
  );
}
