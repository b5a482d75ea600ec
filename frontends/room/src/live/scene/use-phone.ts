import { useSyncExternalStore } from "react";
import { CROWD_CAP_DESKTOP, CROWD_CAP_PHONE } from "./crowd.ts";

const PHONE_QUERY = "(max-width: 640px)";

/** Whether the page is phone-wide (the room's phone layout, the crowd's smaller sample). */
export function usePhone(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const query = globalThis.matchMedia?.(PHONE_QUERY);
      query?.addEventListener("change", listener);
      return () => query?.removeEventListener("change", listener);
    },
    () => globalThis.matchMedia?.(PHONE_QUERY).matches ?? false,
    () => false,
  );
}

/** The floor's sample size for the screen: fewer on a phone. */
export function useCrowdCap(): number {
  return usePhone() ? CROWD_CAP_PHONE : CROWD_CAP_DESKTOP;
}
