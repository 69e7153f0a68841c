/**
 * A store that sends every call to a scratch copy until the dry run ends: warm-up requests run
 * the real app, handlers and all, and whatever they write lands in the scratch store, never in
 * the real one. Generic over the store, so a new store method needs nothing here.
 */
import { methodNames } from "./method-names.js";

/** The store handed to the app, and the switch that points it at the real store for good. */
export interface DryRunStore<S> {
  store: S;
  /** From now on every call goes to the real store, with no indirection left. */
  end(): void;
}

/** A store whose calls go to `scratch` until `end()`, then to `real`. */
export function dryRunStore<S extends object>(real: S, scratch: S): DryRunStore<S> {
  const store = Object.create(real) as Record<string, unknown>;
  const names = methodNames(real);
  const point = (target: S) => {
    const methods = target as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of names) store[name] = methods[name]?.bind(target);
  };
  point(scratch);
  return { store: store as unknown as S, end: () => point(real) };
}
