/** Real servers for the gates: the Animal Store's scratch server, closed and removed after. */

import type { LoadedSpec } from "@animal-store/openapi";
import { startScratchServer } from "@animal-store/openapi-engine/testing";
import { animalStore, type RunningServer } from "@animal-store/server";

/** A running real server and its API base URL (`…/v1`). */
export interface GateServer {
  server: RunningServer;
  /** The origin, e.g. http://127.0.0.1:41234. */
  origin: string;
  /** The API base, `${origin}/v1`: what Prism proxies to and Respect calls. */
  apiUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the real server (the start sequence of `pnpm start`) on a free port with its own
 * SQLite file, silent logs and the given extra environment (rate-limit ban settings, ...);
 * `options.spec` serves another bundled contract (a scratch edit of the spec); `options.clock`
 * replaces Date.now for rate-limit windows and sunsets.
 */
export async function startGateServer(
  env: Record<string, string> = {},
  options: { spec?: LoadedSpec; clock?: () => number } = {},
): Promise<GateServer> {
  const scratch = await startScratchServer(animalStore, { name: "contract-gate", env, ...options });
  return {
    server: scratch.server,
    origin: scratch.url,
    apiUrl: scratch.apiUrl,
    close: () => scratch.close(),
  };
}
