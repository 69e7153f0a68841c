/**
 * `pnpm mock --stateful` in this process for the browser suites, as `pnpm web` starts it, on a
 * clock a test can move forward (a rate limit's window then ends seconds later).
 */
import { startStatefulMock } from "@animal-store/mock/src/stateful/stateful-mock.mjs";
import { type MovableClock, movableClock } from "./movable-clock.js";

/** The running mock, its API base URL, its reset and its movable clock. */
export interface WebTestMock extends MovableClock {
  /** e.g. http://127.0.0.1:41234/v1 */
  apiUrl: string;
  /** Puts the seed back (what `POST /__mock/reset` does). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the stateful mock on a free port, its keys on its default plan. */
export async function startWebTestMock(): Promise<WebTestMock> {
  const clock = movableClock();
  const mock = await startStatefulMock({
    host: "127.0.0.1",
    port: 0,
    stateful: true,
    dynamic: false,
    logLevel: "silent",
    clock: clock.now,
  });
  return { ...clock, apiUrl: mock.url, reset: mock.reset, close: mock.close };
}
