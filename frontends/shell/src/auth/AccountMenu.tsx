// The header's account part for a signed-in user: name, avatar, people, log out. Its own chunk with TanStack Query
// (the profile's nickname and avatar, the log-out mutation), so a guest's first screen carries neither.
import { useAppTranslation } from "@tt/web-kit";
import { SHELL_NAMESPACE, shellTranslations } from "../locales.ts";
import { Link, useNavigate } from "../router.tsx";
import { useCurrentAvatar, useDisplayName, useLogout } from "./use-account.ts";

export function AccountMenu() {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  const name = useDisplayName();
  const avatar = useCurrentAvatar().data;
  const logout = useLogout();
  const navigate = useNavigate();
  return (
    <div className="tt-account">
      {avatar &&
        (avatar.imageUrl ? (
          <img
            className="tt-header-avatar"
            src={avatar.imageUrl}
            alt={t("header.avatar", { name: avatar.name })}
            width={28}
            height={28}
          />
        ) : (
          <span className="tt-header-avatar" data-testid="current-avatar">
            {t("header.avatar", { name: avatar.name })}
          </span>
        ))}
      <span data-testid="signed-in-user">{t("header.signedInAs", { name })}</span>
      <Link className="tt-button tt-button--quiet" to="/people">
        {t("header.people")}
      </Link>
      <button
        type="button"
        className="tt-button tt-button--quiet"
        disabled={logout.isPending}
        onClick={() => logout.mutate(undefined, { onSettled: () => void navigate("/") })}
      >
        {logout.isPending ? t("header.loggingOut") : t("header.logout")}
      </button>
    </div>
  );
}
