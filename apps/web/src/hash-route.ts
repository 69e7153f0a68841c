import { useSyncExternalStore } from "react";

/** What the address shows: the list, or one animal (`#/pets/<id>`). */
export type Route = { kind: "list" } | { kind: "pet"; petId: number };

/** Reads a location hash; anything but `#/pets/<positive integer>` is the list. */
export function routeOf(hash: string): Route {
  const match = /^#\/pets\/(\d{1,16})$/.exec(hash);
  const petId = Number(match?.[1]);
  return match && Number.isSafeInteger(petId) && petId > 0
    ? { kind: "pet", petId }
    : { kind: "list" };
}

/** The hash to open one animal. */
export function petHash(petId: number): string {
  return `#/pets/${petId}`;
}

const subscribe = (listener: () => void) => {
  window.addEventListener("hashchange", listener);
  return () => window.removeEventListener("hashchange", listener);
};

/** The current location hash, re-rendering when it changes (back, forward, links). */
export function useHash(): string {
  return useSyncExternalStore(subscribe, () => window.location.hash);
}
