/**
 * The servers the fault statuses need, next to the suite's main server: one started with a clock
 * the check sets (`startServer(env, { clock })`, for sunsets), and the real app (`createApp`)
 * over a store whose every call can be switched to throw an unexpected error (500) or to go to a
 * real PostgreSQL store pointed at a port nobody listens on (503). Key lookups of the failing app
 * go to the healthy store, so the faults reach the operations rather than the credential check.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  type RunningServer,
  type Store,
  startServer,
} from "@animal-store/server";
import type { FaultTargets } from "./checks/fault-statuses.js";
import type { FuzzContract } from "./fuzz-contract.js";

/** Limits no run reaches, for the keys of the plan whose keys carry their own. */
export const UNREACHED_LIMITS = { perMinute: 1e9, perDay: 1e9 };

/** The environment of an in-process server on a fresh SQLite file in `dir`, trusting one proxy hop. */
export function serverEnv(dir: string): Record<string, string> {
  return {
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "silent",
    TRUST_PROXY: "1",
    DATABASE_URL: `file:${join(dir, "pets.db")}`,
  };
}

type StoreMode = "none" | "unexpected" | "unavailable";

/** `real` whose every call (but close) fails as `mode()` says: any store method, listed nowhere. */
function switchable(real: Store, unreachable: Store, mode: () => StoreMode): Store {
  return new Proxy(real, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function" || name === "close") return value;
      return (...args: unknown[]) => {
        if (mode() === "unexpected")
          return Promise.reject(new TypeError(`planted failure in ${String(name)}`));
        const to = mode() === "unavailable" ? unreachable : target;
        return (Reflect.get(to, name) as (...a: unknown[]) => unknown).apply(to, args);
      };
    },
  });
}

/** Starts the fault servers for `main`; `close` stops them and removes their files. */
export async function startFaultTargets(main: RunningServer, contract: FuzzContract) {
  const dir = mkdtempSync(join(tmpdir(), "rel-fuzz-faults-"));
  let clock: number | null = null;
  const timeServer = await startServer(serverEnv(join(dir)), { clock: () => clock ?? Date.now() });
  const plan = contract.customPlan;
  const timeKey = await timeServer.createKey({
    plan,
    name: "fuzz time travel",
    ...UNREACHED_LIMITS,
  });

  const real = await openSqliteStore(join(dir, "failing.db"));
  const unreachable = await openPostgresStore({
    url: "postgres://postgres@127.0.0.1:1/x",
    skipMigrations: true,
  });
  let mode: StoreMode = "none";
  const config = configFrom({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATABASE_URL: `file:${join(dir, "unused.db")}`,
  });
  const limiter = createMemoryRateLimiter({ ban: main.contract.rateLimit.ban });
  const app = await createApiApp(animalStore, {
    store: switchable(real, unreachable, () => mode),
    limiter,
    clock: Date.now,
    config,
    logger: createLogger(config, animalStore.names.service),
    keyLookup: createKeyLookup(real, 0),
  });
  const failing = createServer(app);
  await new Promise<void>((resolve) => failing.listen(0, "127.0.0.1", resolve));
  const { key: failingKey } = await issueApiKey(real, main.contract.rateLimit, {
    plan,
    name: "fuzz failing store",
    ...UNREACHED_LIMITS,
  });

  const targets: FaultTargets = {
    limitedKey: () => main.createKey({ plan, name: "fuzz limited", perMinute: 1, perDay: 1 }),
    timeTravel: {
      target: { origin: timeServer.url, key: timeKey, forwardedFor: true },
      setClock: (ms) => {
        clock = ms;
      },
    },
    failingStore: {
      target: {
        origin: `http://127.0.0.1:${(failing.address() as AddressInfo).port}`,
        key: failingKey,
        forwardedFor: false,
      },
      set: (next) => {
        mode = next;
      },
    },
  };
  return {
    targets,
    async close() {
      failing.closeAllConnections();
      await new Promise<void>((resolve) => failing.close(() => resolve()));
      await Promise.allSettled([
        timeServer.close(),
        limiter.close(),
        real.close(),
        unreachable.close(),
      ]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
