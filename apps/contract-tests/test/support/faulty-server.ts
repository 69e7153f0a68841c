/**
 * The real server with switchable failures, for the statuses a healthy server never sends: 410
 * (clock past every sunset the contract sets), 500 (the store throws an unexpected error) and 503
 * (every store call goes to a real PostgreSQL store whose database is unreachable). It is the
 * Animal Store's faultable scratch server: keys, rate limits, validation and the error handler
 * are the real ones, and key lookups use the healthy store, so the faults reach the operations
 * rather than the credential check.
 */
import { loadBundledSpec, specOperations } from "@animal-store/openapi";
import { type StoreFault, startScratchServer } from "@animal-store/openapi-engine/testing";
import { animalStore } from "@animal-store/server";

/** Which failure the next requests meet. */
export interface FaultSwitches {
  afterSunset: boolean;
  storeFailure: StoreFault;
}

/** A listening server whose failures the test switches on and off. */
export interface FaultyServer {
  apiUrl: string;
  /** A key of the contract's roomiest plan in its store. */
  key: string;
  set(switches: Partial<FaultSwitches>): void;
  close(): Promise<void>;
}

/** The latest `x-sunset` of the contract (not restated here); every sunset is past after it. */
function lastSunsetMs(): number {
  const sunsets = specOperations(loadBundledSpec().spec)
    .map((op) => op.operation["x-sunset"])
    .filter((value): value is string => typeof value === "string")
    .map((date) => Date.parse(`${date}T00:00:00Z`));
  return Math.max(0, ...sunsets);
}

/** Starts the server on a free port with a fresh SQLite store; every switch off. */
export async function startFaultyServer(): Promise<FaultyServer> {
  const switches: FaultSwitches = { afterSunset: false, storeFailure: "none" };
  const sunset = lastSunsetMs();
  const scratch = await startScratchServer(animalStore, {
    name: "contract-faulty",
    faultable: true,
    clock: () => (switches.afterSunset ? sunset + 60_000 : Date.now()),
  });
  return {
    apiUrl: scratch.apiUrl,
    key: scratch.key,
    set(changes) {
      Object.assign(switches, changes);
      scratch.setFault(switches.storeFailure);
    },
    close: () => scratch.close(),
  };
}
