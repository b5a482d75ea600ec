import { useSyncExternalStore } from "react";
import { CROWD_GRID_DESKTOP, CROWD_GRID_PHONE, type CrowdGrid } from "./crowd.ts";

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

/** The floor's grid for the screen: fewer cells on a phone. */
export function useCrowdGrid(): CrowdGrid {
  return usePhone() ? CROWD_GRID_PHONE : CROWD_GRID_DESKTOP;
}
