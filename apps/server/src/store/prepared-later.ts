/**
 * A store whose database could not be prepared at start (PostgreSQL unreachable): the server
 * still starts, every call answers 503 (StoreUnavailableError) until the database is back, and
 * preparation (schema, migrations) is retried in the background and on demand, so the instance
 * heals by itself and /readyz turns 200 without a restart.
 */
import { StoreUnavailableError } from "../errors.js";
import type { Store } from "./types.js";

/**
 * Wraps `store` so that nothing reaches it before `prepare` has succeeded once. Called right
 * after a failed attempt: within `retryMs` of a failure, or while an attempt is running, calls fail
 * at once instead of waiting on a database that may hang (so start-up's warm-up does not wait).
 */
export function preparedLater(store: Store, prepare: () => Promise<void>, retryMs = 1000): Store {
  let ready = false;
  let attempt: Promise<void> | null = null;
  let failedAt = performance.now();
  const tryPrepare = (): Promise<void> => {
    attempt ??= prepare().then(
      () => {
        ready = true;
        clearInterval(timer);
      },
      (err: unknown) => {
        attempt = null;
        failedAt = performance.now();
        throw err instanceof StoreUnavailableError
          ? err
          : new StoreUnavailableError("the database is not prepared yet", { cause: err });
      },
    );
    return attempt;
  };
  const timer = setInterval(() => tryPrepare().catch(() => {}), retryMs);
  timer.unref();
  const gate =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (!ready) {
        if (attempt || performance.now() - failedAt < retryMs) {
          throw new StoreUnavailableError("the database is not reachable yet");
        }
        await tryPrepare();
      }
      return call(...args);
    };
  return {
    engine: store.engine,
    listPets: gate(store.listPets.bind(store)),
    createPet: gate(store.createPet.bind(store)),
    getPet: gate(store.getPet.bind(store)),
    insertApiKey: gate(store.insertApiKey.bind(store)),
    findApiKeyByHash: gate(store.findApiKeyByHash.bind(store)),
    listApiKeys: gate(store.listApiKeys.bind(store)),
    revokeApiKey: gate(store.revokeApiKey.bind(store)),
    countApiKeys: gate(store.countApiKeys.bind(store)),
    check: gate(store.check.bind(store)),
    close: async () => {
      clearInterval(timer);
      await attempt?.catch(() => {});
      await store.close();
    },
  };
}
