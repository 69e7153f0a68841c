/**
 * The servers the fuzz suites run against: the Animal Store's scratch servers (the start sequence
 * of `pnpm start`, a fresh SQLite file each, one proxy hop trusted so each request says which
 * address it comes from), with a key of the contract's custom plan whose limits no run reaches.
 * Next to the suite's main server, the fault statuses need two more: one whose clock the check
 * sets (for sunsets), and one whose store can be switched to throw an unexpected error (500) or
 * to meet an unreachable database (503); key lookups of that one use the healthy store, so the
 * faults reach the operations rather than the credential check.
 */
import type { LoadedSpec } from "@animal-store/openapi";
import {
  type ScratchServer,
  type ScratchServerOptions,
  startScratchServer,
} from "@animal-store/openapi-engine/testing";
import { animalStore, type Store } from "@animal-store/server";
import type { FaultTargets } from "./checks/fault-statuses.js";
import type { FuzzContract } from "./fuzz-contract.js";

/** Limits no run reaches, for the keys of the plan whose keys carry their own. */
export const UNREACHED_LIMITS = { perMinute: 1e9, perDay: 1e9 };

/** A fuzzed server on `spec` (default the bundled contract), with its key. */
export function startFuzzServer(
  contract: FuzzContract,
  options: Omit<ScratchServerOptions, "key"> & { spec?: LoadedSpec } = {},
): Promise<ScratchServer<Store>> {
  return startScratchServer(animalStore, {
    name: "fuzz",
    ...options,
    env: { TRUST_PROXY: "1", ...options.env },
    key: { plan: contract.customPlan, ...UNREACHED_LIMITS },
  });
}

/** Starts the fault servers for `main`; `close` stops them and removes their files. */
export async function startFaultTargets(main: ScratchServer<Store>, contract: FuzzContract) {
  let clock: number | null = null;
  const [timeServer, failing] = await Promise.all([
    startFuzzServer(contract, { name: "fuzz-time", clock: () => clock ?? Date.now() }),
    startScratchServer(animalStore, {
      name: "fuzz-failing",
      faultable: true,
      key: { plan: contract.customPlan, ...UNREACHED_LIMITS },
    }),
  ]);
  const plan = contract.customPlan;
  const targets: FaultTargets = {
    limitedKey: () => main.createKey({ plan, name: "fuzz limited", perMinute: 1, perDay: 1 }),
    timeTravel: {
      target: { origin: timeServer.url, key: timeServer.key, forwardedFor: true },
      setClock: (ms) => {
        clock = ms;
      },
    },
    failingStore: {
      target: { origin: failing.url, key: failing.key, forwardedFor: false },
      set: (mode) => failing.setFault(mode),
    },
  };
  return {
    targets,
    async close() {
      await Promise.allSettled([timeServer.close(), failing.close()]);
    },
  };
}
