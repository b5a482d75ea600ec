import { useEffect, useState } from "react";

/** Spec 002 §9: the search term is sent 300 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The value once it has stopped changing for `delay` milliseconds. */
export function useDebounced<T>(value: T, delay: number = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
