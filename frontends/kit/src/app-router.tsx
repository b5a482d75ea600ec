import { useCallback, useSyncExternalStore, type AnchorHTMLAttributes, type JSX, type MouseEvent } from "react";

// A remote's own small router. The shell's router (wouter) is not a federation singleton, so a remote cannot use its
// context; both read the same window.history instead. A navigation here pushes an entry the way react-router did
// (with an idx) and fires popstate, so the shell's router follows it. A navigation by the shell (history.pushState,
// which fires no event) is heard through the Navigation API's currententrychange where the browser has it, and
// otherwise on the next render (useSyncExternalStore compares snapshots on every render).
//
// Not a federation singleton (it holds no state of its own): each remote bundles it, as it did its own copy, and the
// shell's first page does not carry it.

interface NavigationLike {
  addEventListener(type: "currententrychange", listener: () => void): void;
  removeEventListener(type: "currententrychange", listener: () => void): void;
}

function subscribe(onChange: () => void): () => void {
  const navigation = (window as unknown as { navigation?: NavigationLike }).navigation;
  window.addEventListener("popstate", onChange);
  navigation?.addEventListener("currententrychange", onChange);
  return () => {
    window.removeEventListener("popstate", onChange);
    navigation?.removeEventListener("currententrychange", onChange);
  };
}

const snapshot = () => window.location.pathname + window.location.search;

export interface AppLocation {
  /** The path inside the app, always starting with "/". */
  path: string;
  search: URLSearchParams;
}

export type AppLinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; base?: string | undefined };

export interface AppRouter {
  /** Where the shell mounts the app ("/crates"); on its own dev server the app is at the site root. */
  mount: string;
  /**
   * The full URL for an in-app path ("/search" → "/crates/search" inside the shell). `base` is where the app is
   * mounted; by default read from the current page (a part of the app shown on another shell page, such as the home
   * page's live rooms, passes the mount).
   */
  hrefOf(to: string, base?: string): string;
  navigate(to: string, base?: string): void;
  useAppLocation(): AppLocation;
  /** Replaces the query string of the current entry (search terms), without a new history entry. */
  useReplaceSearch(): (params: Record<string, string>) => void;
  /** A link inside the app: a plain click navigates without a reload; a modified click is the browser's. */
  Link(props: AppLinkProps): JSX.Element;
}

/** The router of a remote that the shell mounts at `mount` ("/room"). */
export function createAppRouter(mount: string): AppRouter {
  const basePath = (pathname: string) => (pathname === mount || pathname.startsWith(`${mount}/`) ? mount : "");

  const hrefOf = (to: string, base = basePath(window.location.pathname)) => `${base}${to === "/" && base ? "" : to}`;

  const navigate = (to: string, base?: string) => {
    const previous = window.history.state as { idx?: unknown } | null;
    const idx = typeof previous?.idx === "number" ? previous.idx + 1 : 0;
    window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx }, "", hrefOf(to, base));
    window.dispatchEvent(new PopStateEvent("popstate", { state: window.history.state }));
  };

  function useAppLocation(): AppLocation {
    const current = useSyncExternalStore(subscribe, snapshot, () => "/");
    const [pathname = "/", query = ""] = current.split("?");
    const base = basePath(pathname);
    const path = pathname.slice(base.length).replace(/\/+$/, "") || "/";
    return { path, search: new URLSearchParams(query) };
  }

  function useReplaceSearch(): (params: Record<string, string>) => void {
    return useCallback((params) => {
      const search = new URLSearchParams(params).toString();
      const url = `${window.location.pathname}${search ? `?${search}` : ""}`;
      window.history.replaceState(window.history.state, "", url);
    }, []);
  }

  function Link({ to, base, onClick, ...props }: AppLinkProps) {
    const follow = (event: MouseEvent<HTMLAnchorElement>) => {
      onClick?.(event);
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(to, base);
    };
    return <a {...props} href={hrefOf(to, base)} onClick={follow} />;
  }

  return { mount, hrefOf, navigate, useAppLocation, useReplaceSearch, Link };
}
