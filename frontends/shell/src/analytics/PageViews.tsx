import { useEffect } from "react";
import { usePathname } from "../router.tsx";

/**
 * Sends a page-view analytics event for each route the shell shows (path only: no query string, which may carry
 * tokens such as a magic link's). The analytics client is loaded after the page, in its own chunk, so the
 * shell's initial JavaScript does not grow.
 */
export function PageViews() {
  const pathname = usePathname();
  useEffect(() => {
    const path = pathname;
    const t = setTimeout(() => {
      void import("./track-page-view.ts").then((m) => m.trackPageView(path)).catch(() => undefined);
    }, 0);
    return () => clearTimeout(t);
  }, [pathname]);
  return null;
}
