import { useAppTranslation } from "@tt/web-kit";
import { ConfirmDialog, IconButton, Menu, MenuItem, MenuLabel, MenuSeparator } from "@tt/web-kit/ui";
import { Ban, DoorOpen, MoreHorizontal, UserX } from "lucide-react";
import { useState, type ReactElement } from "react";
import { useRoleClient } from "../api.ts";
import { LIVE_NAMESPACE, liveTranslations } from "./locales.ts";

export interface ModerationMenuProps {
  /** The room's uuid. */
  room: string;
  /** The person the actions are about. */
  user: string;
  name: string;
  /** Offers "Remove from the seat" (the person is a DJ). */
  onRemoveFromSeat?: (() => void) | undefined;
  busy?: boolean;
  /** The menu's button; by default an icon button "Actions for <name>". */
  trigger?: ReactElement;
}

/**
 * A moderator's actions on one person in the room (the kit's Menu): remove them from their DJ seat, kick them, ban
 * them. Kicking and banning are confirmed first; the dialog shows the server's refusal, a toast the outcome.
 */
export function ModerationMenu({ room, user, name, onRemoveFromSeat, busy = false, trigger }: ModerationMenuProps) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const roles = useRoleClient();
  const [confirm, setConfirm] = useState<"kick" | "ban" | null>(null);
  const close = (open: boolean) => {
    if (!open) setConfirm(null);
  };
  return (
    <>
      <Menu
        label={t("moderation.actionsFor", { name })}
        trigger={
          trigger ?? (
            <IconButton
              size="sm"
              icon={<MoreHorizontal aria-hidden="true" />}
              label={t("moderation.actionsFor", { name })}
            />
          )
        }
      >
        <MenuLabel>{name}</MenuLabel>
        {onRemoveFromSeat && (
          <MenuItem icon={<UserX aria-hidden="true" />} disabled={busy} onSelect={onRemoveFromSeat}>
            {t("moderation.removeFromSeat")}
          </MenuItem>
        )}
        <MenuSeparator />
        <MenuItem icon={<DoorOpen aria-hidden="true" />} onSelect={() => setConfirm("kick")}>
          {t("moderation.kick")}
        </MenuItem>
        <MenuItem danger icon={<Ban aria-hidden="true" />} onSelect={() => setConfirm("ban")}>
          {t("moderation.ban")}
        </MenuItem>
      </Menu>
      <ConfirmDialog
        open={confirm === "kick"}
        onOpenChange={close}
        title={t("moderation.kickTitle", { name })}
        description={t("moderation.kickText")}
        confirmLabel={t("moderation.kickConfirm")}
        tone="danger"
        onConfirm={() => roles.kickUserFromRoom({ roomId: room, userId: user })}
        successMessage={t("moderation.kicked", { name })}
      />
      <ConfirmDialog
        open={confirm === "ban"}
        onOpenChange={close}
        title={t("moderation.banTitle", { name })}
        description={t("moderation.banText")}
        confirmLabel={t("moderation.banConfirm")}
        tone="danger"
        onConfirm={() => roles.grantRoomRole({ roomId: room, userId: user, role: "banned" })}
        successMessage={t("moderation.banned", { name })}
      />
    </>
  );
}
