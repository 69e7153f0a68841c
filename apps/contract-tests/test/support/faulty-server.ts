/**
 * The real app (`createApp`) with switchable failures, for the statuses a healthy server never
 * sends: 410 (clock past every sunset the contract sets), 500 (the store throws an unexpected
 * error) and 503 (every store call goes to a real PostgreSQL store whose database is unreachable).
 * Keys, rate limits, validation and the error handler are the real ones; key lookups go to the
 * healthy store, so the faults reach the operations rather than the credential check.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadBundledSpec, rateLimitPolicy, specOperations } from "@animal-store/openapi";
import {
  createApiApp,
  createKeyLookup,
  createLogger,
  createMemoryRateLimiter,
  issueApiKey,
} from "@animal-store/openapi-engine";
import {
  animalStore,
  configFrom,
  openPostgresStore,
  openSqliteStore,
  type Store,
} from "@animal-store/server";

/** Which failure the next requests meet. */
export interface FaultSwitches {
  afterSunset: boolean;
  storeFailure: "none" | "unexpected" | "unavailable";
}

/** A listening app whose failures the test switches on and off. */
export interface FaultyServer {
  apiUrl: string;
  /** A key of the contract's roomiest plan in its store. */
  key: string;
  set(switches: Partial<FaultSwitches>): void;
  close(): Promise<void>;
}

const { spec } = loadBundledSpec();
const policy = rateLimitPolicy(spec);

/** The latest `x-sunset` of the contract (not restated here); every sunset is past after it. */
function lastSunsetMs(): number {
  const sunsets = specOperations(spec)
    .map((op) => op.operation["x-sunset"])
    .filter((value): value is string => typeof value === "string")
    .map((date) => Date.parse(`${date}T00:00:00Z`));
  return Math.max(0, ...sunsets);
}

/** The roomiest plan with published limits. */
function roomyPlan(): string {
  return [...policy.planNames]
    .filter((name) => !policy.plans[name]?.custom)
    .sort(
      (a, b) => (policy.plans[b]?.perMinute ?? 0) - (policy.plans[a]?.perMinute ?? 0),
    )[0] as string;
}

/** `real` whose every call (but close) fails as the switches say: any store method, listed nowhere. */
function faultable(real: Store, unreachable: Store, switches: FaultSwitches): Store {
  return new Proxy(real, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function" || name === "close") return value;
      return (...args: unknown[]) => {
        if (switches.storeFailure === "unexpected") {
          return Promise.reject(new TypeError(`planted failure in ${String(name)}`));
        }
        const to = switches.storeFailure === "unavailable" ? unreachable : target;
        return (Reflect.get(to, name) as (...a: unknown[]) => unknown).apply(to, args);
      };
    },
  });
}

/** Starts the app on a free port with a fresh SQLite store; every switch off. */
export async function startFaultyServer(): Promise<FaultyServer> {
  const dir = mkdtempSync(join(tmpdir(), "contract-faulty-"));
  const real = await openSqliteStore(join(dir, "pets.db"));
  // A real PostgreSQL store pointed at a port nobody listens on: its errors are the real ones.
  const unreachable = await openPostgresStore({
    url: "postgres://postgres@127.0.0.1:1/unreachable",
    skipMigrations: true,
  });
  const switches: FaultSwitches = { afterSunset: false, storeFailure: "none" };
  const store = faultable(real, unreachable, switches);
  const sunset = lastSunsetMs();
  const config = configFrom({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATABASE_URL: `file:${dir}/unused.db`,
  });
  const limiter = createMemoryRateLimiter({ ban: policy.ban });
  const app = await createApiApp(animalStore, {
    store,
    limiter,
    clock: () => (switches.afterSunset ? sunset + 60_000 : Date.now()),
    config,
    logger: createLogger(config, animalStore.names.service),
    keyLookup: createKeyLookup(real, 0),
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const { key } = await issueApiKey(real, policy, { plan: roomyPlan(), name: "faulty gate" });
  return {
    apiUrl: `http://127.0.0.1:${port}/v1`,
    key,
    set: (changes) => Object.assign(switches, changes),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([limiter.close(), real.close(), unreachable.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
