import { useAppTranslation } from "@tt/web-kit";
import { Avatar, Menu, MenuItem, MenuLabel, MenuLinkItem, MenuSeparator, toast } from "@tt/web-kit/ui";
import { ChevronDown, LogOut, Pencil, Ticket, User, Users } from "lucide-react";
import { SHELL_NAMESPACE, shellTranslations } from "../locales.ts";
import { Link, useNavigate } from "../router.tsx";
import { forgetNewAccounts } from "../pages/welcome.ts";
import { useCurrentAvatar, useDisplayName, useLogout } from "./use-account.ts";

// The header's account part for a signed-in user. Its own chunk with TanStack Query (the profile's nickname and
// avatar, the log-out mutation) and the kit's components, so a guest's first screen carries none of them.

/** The signed-in visitor's avatar and name, opening their menu: profile, its editing, friends and fans, log out. */
export function AccountMenu({ uuid }: { uuid: string }) {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  const name = useDisplayName() ?? "";
  const avatar = useCurrentAvatar().data;
  const logout = useLogout();
  const navigate = useNavigate();
  return (
    <Menu
      label={t("header.accountMenu")}
      trigger={
        <button type="button" className="tt-account-chip" aria-label={t("header.accountMenuFor", { name })}>
          <Avatar id={uuid} name={name} src={avatar?.imageUrl || undefined} size="sm" decorative />
          <span data-testid="signed-in-user">{name}</span>
          <ChevronDown aria-hidden="true" className="tt-account-chip__chevron" />
        </button>
      }
    >
      <MenuLabel>{t("header.signedInAs", { name })}</MenuLabel>
      <MenuLinkItem>
        <Link to={`/users/${uuid}`}>
          <User aria-hidden="true" />
          {t("header.profile")}
        </Link>
      </MenuLinkItem>
      <MenuLinkItem>
        {/* The profile page opens its "Edit profile" dialog for ?edit (social/ProfilePage.tsx). */}
        <Link to={`/users/${uuid}?edit=1`}>
          <Pencil aria-hidden="true" />
          {t("header.editProfile")}
        </Link>
      </MenuLinkItem>
      <MenuLinkItem>
        <Link to="/people">
          <Users aria-hidden="true" />
          {t("header.people")}
        </Link>
      </MenuLinkItem>
      <MenuLinkItem>
        <Link to="/vouchers">
          <Ticket aria-hidden="true" />
          {t("header.voucher")}
        </Link>
      </MenuLinkItem>
      <MenuSeparator />
      <MenuItem
        icon={<LogOut aria-hidden="true" />}
        disabled={logout.isPending}
        onSelect={() => {
          // This menu unmounts as soon as the session is cleared, before the call returns, so the outcome is
          // told from the promise (a mutate() callback would be dropped with the component). Leaving is local:
          // the session ends even when the server cannot be reached.
          forgetNewAccounts();
          void navigate("/");
          void logout
            .mutateAsync()
            .catch(() => undefined)
            .then(() => toast({ title: t("header.loggedOut"), tone: "success" }));
        }}
      >
        {t("header.logout")}
      </MenuItem>
    </Menu>
  );
}
