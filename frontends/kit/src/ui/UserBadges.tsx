import { Badge } from "./Feedback.tsx";
import { useNames } from "./names.ts";

export interface UserBadgesProps {
  /** The account's role (UserRole): staff roles are shown, "user" is not. */
  role: string | undefined;
  /** The account's badges (UserBadge wire names). */
  badges: readonly string[];
  className?: string;
}

/**
 * What an account is beyond its name: a staff role, then its badges (verified in green), as words. Nothing when it
 * has neither. The same row on the live room's person card and the profile page.
 */
export function UserBadges({ role, badges, className }: UserBadgesProps) {
  const names = useNames();
  const staff = role && role !== "user" ? role : undefined;
  if (!staff && badges.length === 0) return null;
  return (
    <p className={`tt-user-badges ${className ?? ""}`.trim()}>
      {staff && <Badge tone="accent">{names("userRole", staff)}</Badge>}
      {badges.map((badge) => (
        <Badge key={badge} tone={badge === "VERIFIED" ? "success" : "neutral"}>
          {names("badge", badge)}
        </Badge>
      ))}
    </p>
  );
}
