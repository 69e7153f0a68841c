/**
 * The real server for the browser suites: the Animal Store's scratch server (the start sequence
 * of `pnpm start`) allowing the page's origin (CORS_ORIGINS), with a clock a test can move forward
 * so a rate limit's window ends seconds later instead of up to a minute.
 */
import { startScratchServer } from "@animal-store/openapi-engine/testing";
import { animalStore, type RunningServer } from "@animal-store/server";
import { type MovableClock, movableClock } from "./movable-clock.js";

/** A running server, its API base URL and its movable clock. */
export interface WebTestServer extends MovableClock {
  server: RunningServer;
  /** e.g. http://127.0.0.1:41234/v1 */
  apiUrl: string;
  close(): Promise<void>;
}

/** Starts the server allowing `corsOrigin` (none: the page's calls are refused by the browser). */
export async function startRealServer(corsOrigin: string | null): Promise<WebTestServer> {
  const clock = movableClock();
  const scratch = await startScratchServer(animalStore, {
    name: "web",
    env: corsOrigin ? { CORS_ORIGINS: corsOrigin } : {},
    clock: clock.now,
  });
  return {
    ...clock,
    server: scratch.server,
    apiUrl: scratch.apiUrl,
    close: () => scratch.close(),
  };
}
