/**
 * The real app (`createApp`) with switchable failures, for the statuses a healthy server never
 * sends: 410 (clock past the getPet sunset read from the contract), 500 (the store throws an
 * unexpected error) and 503 (pet reads and writes go to a real PostgreSQL store whose database is
 * unreachable). Keys, rate limits, validation and the error handler are the real ones.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createApp,
  createLogger,
  createMemoryRateLimiter,
  issueApiKey,
  loadConfig,
  openPostgresStore,
  openSqliteStore,
  type Store,
} from "@animal-store/server";
import { bundledContractPath } from "../../src/contract-paths.js";

/** Which failure the next requests meet. */
export interface FaultSwitches {
  afterSunset: boolean;
  storeFailure: "none" | "unexpected" | "unavailable";
}

/** A listening app whose failures the test switches on and off. */
export interface FaultyServer {
  apiUrl: string;
  /** A Pro key in its store. */
  key: string;
  set(switches: Partial<FaultSwitches>): void;
  close(): Promise<void>;
}

const PET_METHODS = ["listPets", "createPet", "getPet"] as const;

/** The instant getPet is removed, from the contract's `x-sunset` (not restated here). */
function sunsetMs(): number {
  const contract = JSON.parse(readFileSync(bundledContractPath(), "utf8"));
  const sunset = contract.paths["/pets/{petId}"].get["x-sunset"] as string;
  return Date.parse(`${sunset}T00:00:00Z`);
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
  const store = Object.create(real) as Store;
  for (const method of PET_METHODS) {
    Object.defineProperty(store, method, {
      value: (...args: never[]) => {
        if (switches.storeFailure === "unexpected") {
          return Promise.reject(new TypeError(`planted failure in ${method}`));
        }
        const target = switches.storeFailure === "unavailable" ? unreachable : real;
        return (target[method] as (...a: never[]) => Promise<unknown>)(...args);
      },
    });
  }
  const sunset = sunsetMs();
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATABASE_URL: `file:${dir}/unused.db`,
  });
  const limiter = createMemoryRateLimiter();
  const app = createApp({
    store,
    limiter,
    clock: () => (switches.afterSunset ? sunset + 60_000 : Date.now()),
    config,
    logger: createLogger(config),
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const { key } = await issueApiKey(real, { plan: "pro", name: "faulty gate" });
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
