/**
 * The rate limiter's windows are UTC minutes (the spec's rate-limit description): a test that
 * counts requests inside one window against a server on the real clock must not straddle two.
 */

/** Waits, when fewer than `marginMs` of the current UTC minute remain, for the next to begin. */
export async function awayFromMinuteEdge(
  marginMs: number,
  now: () => number = Date.now,
): Promise<void> {
  const left = 60_000 - (now() % 60_000);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/**
 * A clock for a server under test that starts at the beginning of the current UTC minute and runs
 * on: a test that spends a minute's quota (in well under a minute) then has every request in one
 * window, whenever it happens to start.
 */
export function clockFromMinuteStart(now: () => number = Date.now): () => number {
  const started = now();
  const minuteStart = started - (started % 60_000);
  return () => minuteStart + (now() - started);
}
