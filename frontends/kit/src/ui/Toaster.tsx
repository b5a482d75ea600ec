import { CircleAlert, CircleCheck, Info, X } from "lucide-react";
import { Toast } from "radix-ui";
import { useEffect, useState } from "react";
import { useAppTranslation } from "@tt/web-kit";
import { dismissToast, subscribeToasts, type ToastMessage } from "@tt/web-kit";
import { IconButton } from "./Button.tsx";

const ICONS = { success: CircleCheck, error: CircleAlert, info: Info } as const;

/**
 * Shows the toasts raised with toast() (Radix Toast: announced to screen readers, F8 reaches them, swipe or the
 * close button dismisses them). The shell mounts one for the whole page.
 */
export function Toaster({ duration = 5000 }: { duration?: number }) {
  const { t } = useAppTranslation("common");
  const [toasts, setToasts] = useState<readonly ToastMessage[]>([]);
  useEffect(() => subscribeToasts(setToasts), []);
  return (
    <Toast.Provider duration={duration} label={t("ui.notifications")}>
      {toasts.map((entry) => {
        const Icon = ICONS[entry.tone];
        return (
          <Toast.Root
            key={entry.id}
            className={`tt-toast tt-toast--${entry.tone}`}
            type={entry.tone === "error" ? "foreground" : "background"}
            onOpenChange={(open) => !open && dismissToast(entry.id)}
          >
            <Icon className="tt-toast__icon" aria-hidden="true" />
            <div className="tt-toast__text">
              <Toast.Title className="tt-toast__title">{entry.title}</Toast.Title>
              {entry.description && (
                <Toast.Description className="tt-toast__description">{entry.description}</Toast.Description>
              )}
            </div>
            <Toast.Close asChild>
              <IconButton label={t("ui.dismiss")} icon={<X />} size="sm" />
            </Toast.Close>
          </Toast.Root>
        );
      })}
      <Toast.Viewport className="tt-toast-viewport" />
    </Toast.Provider>
  );
}
