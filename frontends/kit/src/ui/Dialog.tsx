import { X } from "lucide-react";
import { AlertDialog, Dialog as RadixDialog } from "radix-ui";
import { useState, type ReactNode } from "react";
import { toast, useAppTranslation, useErrorText } from "@tt/web-kit";
import { Button, IconButton } from "./Button.tsx";
import { ErrorMessage } from "./Feedback.tsx";

export interface DialogProps {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The element that opens the dialog (a Button); optional when `open` is controlled. */
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** The dialog's buttons, kept in view below the scrolling body. */
  footer?: ReactNode;
  wide?: boolean;
  /**
   * Called as the dialog opens, before focus moves in (to its first control, the close button, by default): a form
   * calls event.preventDefault() and focuses its first field instead.
   */
  onOpenAutoFocus?: (event: Event) => void;
}

/**
 * A modal dialog (Radix): focus moves in and stays in, Escape and the close button close it, focus returns to
 * what opened it. Its body scrolls when it is taller than the screen, so the footer's buttons stay reachable.
 */
export function Dialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  children,
  footer,
  wide,
  onOpenAutoFocus,
}: DialogProps) {
  const { t } = useAppTranslation("common");
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger>}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="tt-overlay" />
        <RadixDialog.Content
          className={`tt-dialog ${wide ? "tt-dialog--wide" : ""}`.trim()}
          onOpenAutoFocus={onOpenAutoFocus}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className="tt-dialog__header">
            <RadixDialog.Title className="tt-dialog__title">{title}</RadixDialog.Title>
            <RadixDialog.Close asChild>
              <IconButton label={t("ui.close")} icon={<X />} size="sm" />
            </RadixDialog.Close>
          </div>
          {description && (
            <RadixDialog.Description className="tt-dialog__description">{description}</RadixDialog.Description>
          )}
          <div className="tt-dialog__body">{children}</div>
          {footer && <div className="tt-dialog__footer">{footer}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** A button that closes the dialog it is in (Cancel). */
export function DialogClose({ children }: { children: ReactNode }) {
  return <RadixDialog.Close asChild>{children}</RadixDialog.Close>;
}

export interface ConfirmDialogProps {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** "danger" for what cannot be undone (ban, delete, refund). */
  tone?: "primary" | "danger";
  /** The action; while it runs the button is busy. A failure shows the server's message here and keeps the dialog open. */
  onConfirm: () => Promise<unknown> | unknown;
  /** Told as a toast when the action succeeded. */
  successMessage?: string;
}

/** Asks before an action, runs it, and tells its outcome: the server's message in the dialog, or a toast. */
export function ConfirmDialog({
  open: openProp,
  onOpenChange,
  trigger,
  title,
  description,
  children,
  confirmLabel,
  cancelLabel,
  tone = "primary",
  onConfirm,
  successMessage,
}: ConfirmDialogProps) {
  const { t } = useAppTranslation("common");
  const errorText = useErrorText();
  const [ownOpen, setOwnOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const open = openProp ?? ownOpen;
  const setOpen = (next: boolean) => {
    if (busy) return;
    if (!next) setError(undefined);
    setOwnOpen(next);
    onOpenChange?.(next);
  };
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      setBusy(false);
      setOwnOpen(false);
      onOpenChange?.(false);
      if (successMessage) toast({ title: successMessage, tone: "success" });
    } catch (failure) {
      setBusy(false);
      setError(errorText(failure));
    }
  };
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      {trigger && <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="tt-overlay" />
        <AlertDialog.Content className="tt-dialog" {...(description ? {} : { "aria-describedby": undefined })}>
          <div className="tt-dialog__header">
            <AlertDialog.Title className="tt-dialog__title">{title}</AlertDialog.Title>
          </div>
          {description && (
            <AlertDialog.Description className="tt-dialog__description">{description}</AlertDialog.Description>
          )}
          {(children || error) && (
            <div className="tt-dialog__body">
              {children}
              {error && <ErrorMessage>{error}</ErrorMessage>}
            </div>
          )}
          <div className="tt-dialog__footer">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={busy}>
                {cancelLabel ?? t("ui.cancel")}
              </Button>
            </AlertDialog.Cancel>
            <Button variant={tone === "danger" ? "danger" : "primary"} busy={busy} onClick={() => void confirm()}>
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
