import { createContext, useContext, useEffect, useState, useSyncExternalStore } from "react";
import type { Api } from "./api.js";
import type { ApiKeyStore } from "./api-key.js";
import type { ValueStore } from "./value-store.js";

/** The app's client and key store, provided once by main.tsx. */
export const ApiContext = createContext<{ api: Api; keys: ApiKeyStore } | null>(null);

/** The app's client and key store. */
export function useApi(): { api: Api; keys: ApiKeyStore } {
  const value = useContext(ApiContext);
  if (!value) throw new Error("useApi outside <ApiContext.Provider>");
  return value;
}

/** The current value of a ValueStore, re-rendering on change. */
export function useValue<T>(store: ValueStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get);
}

/** Date.now() at each render, re-rendering every `intervalMs` while `active`. */
export function useNow(active: boolean, intervalMs = 250): number {
  const [, setTicks] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTicks((ticks) => ticks + 1), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return Date.now();
}
