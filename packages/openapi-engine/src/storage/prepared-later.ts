/**
 * A store whose database could not be prepared at start (PostgreSQL unreachable): the server
 * still starts, every call answers 503 (StoreUnavailableError) until the database is back, and
 * preparation (schema, migrations) is retried in the background and on demand, so the instance
 * heals by itself and /readyz turns 200 without a restart. Generic over the store: every method
 * of it is gated, whatever the application's store holds.
 */
import { StoreUnavailableError } from "../errors.js";
import { methodNames } from "./method-names.js";

/**
 * Wraps `store` so that nothing reaches it before `prepare` has succeeded once. Called right
 * after a failed attempt: within `retryMs` of a failure, or while an attempt is running, calls fail
 * at once instead of waiting on a database that may hang (so start-up's warm-up does not wait).
 * Every method of `store` but `close` must return a promise.
 */
export function preparedLater<S extends { close(): Promise<void> }>(
  store: S,
  prepare: () => Promise<void>,
  retryMs = 1000,
  /** Why the attempt before this call failed (the cause every refusal reports until the next). */
  firstFailure?: unknown,
): S {
  let ready = false;
  let attempt: Promise<void> | null = null;
  let failedAt = performance.now();
  // Why the last attempt failed: the cause of every refusal until the next one (for the logs).
  let lastFailure: unknown = firstFailure;
  const tryPrepare = (): Promise<void> => {
    attempt ??= prepare().then(
      () => {
        ready = true;
        clearInterval(timer);
      },
      (err: unknown) => {
        attempt = null;
        failedAt = performance.now();
        lastFailure = err;
        throw err instanceof StoreUnavailableError
          ? err
          : new StoreUnavailableError("the database is not prepared yet", { cause: err });
      },
    );
    return attempt;
  };
  const timer = setInterval(() => tryPrepare().catch(() => {}), retryMs);
  timer.unref();
  // Inherits the store's other properties (its engine name, say); methods are replaced below.
  const gated = Object.create(store) as Record<string, unknown>;
  const methods = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of methodNames(store)) {
    if (name === "close") continue;
    gated[name] = async (...args: unknown[]) => {
      if (!ready) {
        if (attempt || performance.now() - failedAt < retryMs) {
          throw new StoreUnavailableError("the database is not reachable yet", {
            cause: lastFailure,
          });
        }
        await tryPrepare();
      }
      return methods[name]?.apply(store, args);
    };
  }
  gated.close = async () => {
    clearInterval(timer);
    await attempt?.catch(() => {});
    await store.close();
  };
  return gated as unknown as S;
}
