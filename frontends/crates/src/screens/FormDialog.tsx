import { Button, Dialog, DialogClose, Skeleton } from "@tt/web-kit/ui";
import { Suspense, useId, useState, type ReactNode } from "react";

/** What a form inside a FormDialog is given: the id its submit button points at, and the dialog's controls. */
export interface DialogFormProps {
  formId: string;
  /** The form's call is running: the submit button shows it. */
  setBusy: (busy: boolean) => void;
  close: () => void;
}

/**
 * A dialog around a form that is loaded when the dialog first opens: the form library and its schema validator
 * (zod) are a large shared chunk, which a screen should not fetch for a form nobody opened. The buttons stay in the
 * dialog's footer; the submit button submits the form by its id.
 */
export function FormDialog({
  trigger,
  open,
  onOpenChange,
  title,
  description,
  submitLabel,
  cancelLabel,
  render,
}: {
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: string;
  description?: string;
  submitLabel: string;
  cancelLabel: string;
  render: (props: DialogFormProps) => ReactNode;
}) {
  const formId = useId();
  const [busy, setBusy] = useState(false);
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  const setOpen = (next: boolean) => {
    setOwnOpen(next);
    if (!next) setBusy(false);
    onOpenChange?.(next);
  };
  return (
    <Dialog
      open={isOpen}
      onOpenChange={setOpen}
      trigger={trigger}
      title={title}
      description={description}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{cancelLabel}</Button>
          </DialogClose>
          <Button type="submit" form={formId} busy={busy}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <Suspense
        fallback={
          <div className="tt-stack" aria-hidden="true">
            <Skeleton width="6rem" height="0.9rem" />
            <Skeleton height="var(--tt-control-height)" radius="var(--tt-radius)" />
          </div>
        }
      >
        {render({ formId, setBusy, close: () => setOpen(false) })}
      </Suspense>
    </Dialog>
  );
}
