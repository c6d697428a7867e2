"use client";
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and during hydration, true afterwards: controls that only JavaScript
 * can enable (a disabled-until-valid button) stay usable in a page whose scripts have not loaded.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
