import { useSession } from "@tt/web-kit";
import { EmptyState } from "@tt/web-kit/ui";
import { ShieldLock } from "lucide-react";
import { useAdminText } from "../i18n.ts";

/**
 * Whether the console may ask the server at all: guests and members cannot use it, so only a staff role asks (the
 * server decides the rest). A screen is not even rendered for anyone else, so none of them calls the server for a
 * refusal.
 */
export function useMayAdminister(): boolean {
  const { signedIn, user } = useSession();
  return signedIn && user?.role !== undefined && user.role !== "user";
}

/** Shown instead of the console to anyone who is not staff, and when the server refuses. */
export function AdminsOnly() {
  const { t } = useAdminText();
  return (
    <div role="alert">
      <EmptyState icon={<ShieldLock />} title={t("adminsOnlyTitle")}>
        {t("adminsOnlyBody")}
      </EmptyState>
    </div>
  );
}
