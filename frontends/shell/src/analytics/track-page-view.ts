import { getPageAnalytics } from "@tt/web-kit";

/** A route's page view; a magic-link path's token is not sent. */
export function trackPageView(path: string): void {
  const safe = path.startsWith("/magic-link/") ? "/magic-link" : path;
  getPageAnalytics().track("page-view", { path: safe.slice(0, 500), referrer: document.referrer.slice(0, 500) });
}
