import { Check, UserPlus } from "lucide-react";
import { Button, type ButtonSize } from "./Button.tsx";

export interface FollowButtonProps {
  /** Whether the signed-in person follows this DJ. */
  following: boolean;
  /** The words of the screen it is on ("Follow this DJ" on a profile page, "Follow" on a person card). */
  followLabel: string;
  unfollowLabel: string;
  onFollow: () => void;
  onUnfollow: () => void;
  /** A change is under way: neither is offered. */
  busy?: boolean;
  /** Whether they follow is still being learned: following is not offered yet. */
  checking?: boolean;
  /** "sm" in a list's row. */
  size?: ButtonSize;
}

/**
 * Follow a DJ, or stop (DjFanService): the one toggle of the profile page and the live room's person card. While
 * followed it is a quiet button with a tick; otherwise the primary action.
 */
export function FollowButton({
  following,
  followLabel,
  unfollowLabel,
  onFollow,
  onUnfollow,
  busy = false,
  checking = false,
  size = "md",
}: FollowButtonProps) {
  return following ? (
    <Button variant="secondary" size={size} icon={<Check aria-hidden="true" />} disabled={busy} onClick={onUnfollow}>
      {unfollowLabel}
    </Button>
  ) : (
    <Button size={size} icon={<UserPlus aria-hidden="true" />} disabled={busy || checking} onClick={onFollow}>
      {followLabel}
    </Button>
  );
}
