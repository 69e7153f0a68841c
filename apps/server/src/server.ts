/**
 * startServer: the Animal Store server on `env` (used by main.ts, `pnpm start`, and by other
 * packages' tests, benchmarks and gates; PORT=0 allowed).
 */
import { animalStoreApplication } from "./animal-store/application.js";
import type { Store } from "./animal-store/store/index.js";
import {
  type RunningServer as EngineRunningServer,
  type StartOptions,
  startApiServer,
} from "./engine/node/server.js";

/** A running Animal Store server. */
export type RunningServer = EngineRunningServer<Store>;

/** Starts the Animal Store server; resolves once listening and warmed up. */
export function startServer(
  env: Record<string, string | undefined> = process.env,
  options: StartOptions = {},
): Promise<RunningServer> {
  return startApiServer(animalStoreApplication, env, options);
}
