import { Check } from "lucide-react";
import { DropdownMenu, Popover as RadixPopover, Tooltip as RadixTooltip } from "radix-ui";
import { type ReactElement, type ReactNode, useState } from "react";

/** A menu of actions (Radix DropdownMenu): arrow keys move, Enter chooses, Escape closes, typing jumps. */
export function Menu({
  trigger,
  children,
  align = "end",
  label,
}: {
  /** The button that opens the menu (a Button or an IconButton). */
  trigger: ReactElement;
  children: ReactNode;
  align?: "start" | "center" | "end";
  /** The menu's accessible name, when its trigger's is not enough. */
  label?: string;
}) {
  return (
    // Not modal: the page behind a menu keeps scrolling and answering the pointer (a header or row menu is a
    // shortcut, not a task); focus, keyboard and closing on an outside click work as in a modal one.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="tt-menu"
          align={align}
          sideOffset={6}
          collisionPadding={8}
          aria-label={label}
          // Radix names the menu by its trigger (aria-labelledby), which would win over the label given here.
          {...(label ? { "aria-labelledby": undefined } : {})}
        >
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function MenuItem({
  icon,
  children,
  onSelect,
  disabled,
  danger,
}: {
  icon?: ReactNode;
  children: ReactNode;
  onSelect?: () => void;
  disabled?: boolean;
  danger?: boolean;
}) {
  return (
    <DropdownMenu.Item
      className={`tt-menu__item ${danger ? "tt-menu__item--danger" : ""}`.trim()}
      disabled={disabled}
      onSelect={onSelect}
    >
      {icon}
      {children}
    </DropdownMenu.Item>
  );
}

/**
 * An on/off entry that keeps the menu open when chosen (which columns a table shows): announced as a checked
 * menu item, a check mark when on.
 */
export function MenuCheckboxItem({
  checked,
  onCheckedChange,
  children,
  disabled,
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  children: ReactNode;
  disabled?: boolean;
}) {
  return (
    <DropdownMenu.CheckboxItem
      className="tt-menu__item tt-menu__item--check"
      checked={checked}
      disabled={disabled}
      onCheckedChange={onCheckedChange}
      // Several columns are usually toggled in a row: the menu stays open.
      onSelect={(event) => event.preventDefault()}
    >
      <span className="tt-menu__check" aria-hidden="true">
        <DropdownMenu.ItemIndicator>
          <Check />
        </DropdownMenu.ItemIndicator>
      </span>
      {children}
    </DropdownMenu.CheckboxItem>
  );
}

/** A menu entry that is a link (router links work through asChild). */
export function MenuLinkItem({ children }: { children: ReactElement }) {
  return (
    <DropdownMenu.Item className="tt-menu__item" asChild>
      {children}
    </DropdownMenu.Item>
  );
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return <DropdownMenu.Label className="tt-menu__label">{children}</DropdownMenu.Label>;
}

export function MenuSeparator() {
  return <DropdownMenu.Separator className="tt-menu__separator" />;
}

/** Content beside a trigger that stays open until dismissed (Radix Popover). */
export function Popover({
  trigger,
  children,
  label,
  open: controlled,
  onOpenChange,
}: {
  trigger: ReactElement;
  children: ReactNode;
  label?: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const [own, setOwn] = useState(false);
  const open = controlled ?? own;
  const change = (next: boolean) => {
    setOwn(next);
    onOpenChange?.(next);
  };
  return (
    <RadixPopover.Root open={open} onOpenChange={change}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content
          className="tt-popover"
          sideOffset={6}
          collisionPadding={8}
          aria-label={label}
          // Escape pressed in the popover closes it even while a toast is shown: Radix hands Escape to the newest
          // layer only, and a toast raised from the popover (its action's outcome) is newer.
          onKeyDown={(event) => {
            if (event.key === "Escape" && open) change(false);
          }}
        >
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}

/** A short label shown on hover and focus (Radix Tooltip); the trigger must already have an accessible name. */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement }) {
  return (
    <RadixTooltip.Provider delayDuration={400}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content className="tt-tooltip" sideOffset={6}>
            {content}
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
