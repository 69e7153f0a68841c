/**
 * A store that fails on demand, for the statuses a healthy server never sends: a planted bug in
 * any store call (500), or an outage (503) with the real errors of an unreachable database. Any
 * method of any application's store, listed nowhere: a method added to the store is covered.
 */
import type { Application, EngineStore } from "../application.js";

/** What the next store calls do: work, throw a planted bug, or meet an unreachable database. */
export type StoreFault = "none" | "unexpected" | "unavailable";

/** `store` whose every call (but close) fails as `fault()` says; `unreachable` answers outages. */
export function faultableStore<S extends object>(
  store: S,
  unreachable: S,
  fault: () => StoreFault,
): S {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function" || name === "close") return value;
      return (...args: unknown[]) => {
        const now = fault();
        if (now === "unexpected") {
          return Promise.reject(new TypeError(`planted failure in ${String(name)}`));
        }
        const to = now === "unavailable" ? unreachable : target;
        return (Reflect.get(to, name) as (...a: unknown[]) => unknown).apply(to, args);
      };
    },
  });
}

/**
 * `application`'s store on a PostgreSQL server nobody listens on: every call fails as an outage
 * does (503), with the driver's own errors.
 */
export function unreachableStore<S extends EngineStore>(application: Application<S>): Promise<S> {
  return application.openStore({
    engine: "postgres",
    url: "postgres://postgres@127.0.0.1:1/unreachable",
    schema: undefined,
  });
}
