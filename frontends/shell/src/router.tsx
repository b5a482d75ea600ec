// The shell's routing, over wouter (issue 24: about 2 KB gzip, where react-router was 13 KB of the first load).
// Screens import from here, not from the library, so the few names they use stay in one place.
// The location is the browser's own (pathname, history.pushState), shared with the remotes' small routers: wouter
// hears their pushes (popstate) and they hear the shell's (the Navigation API, or their next render).
import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";

export { Link, Route, Router, Switch, useParams, useSearchParams } from "wouter";

/** Goes to an in-app path; `replace` takes the place of the current history entry. */
export function useNavigate(): (to: string, options?: { replace?: boolean }) => void {
  return useLocation()[1];
}

/** The current path, without the query string. */
export function usePathname(): string {
  return useLocation()[0];
}

/**
 * A navigation link marked (class "active", aria-current="page") while its page is shown: its path or, unless
 * `end`, any path below it.
 */
export function NavLink({ to, end = false, children }: { to: string; end?: boolean; children: ReactNode }) {
  const path = usePathname().toLowerCase();
  const target = to.toLowerCase();
  const active = path === target || (!end && path.startsWith(target.endsWith("/") ? target : `${target}/`));
  return (
    <Link to={to} className={active ? "active" : undefined} aria-current={active ? "page" : undefined}>
      {children}
    </Link>
  );
}
