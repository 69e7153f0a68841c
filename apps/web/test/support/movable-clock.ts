/**
 * A clock a test can move forward, for a server or mock under test: a rate limit's window then
 * ends seconds later instead of up to a minute. Time keeps flowing from where it was moved to.
 */

/** The clock, and how to move it. */
export interface MovableClock {
  /** Its current time (ms). */
  now(): number;
  /** Moves it forward to `ms`. */
  jumpTo(ms: number): void;
}

/** A clock at the real time until moved. */
export function movableClock(): MovableClock {
  let offset = 0;
  const now = () => Date.now() + offset;
  return {
    now,
    jumpTo(ms) {
      if (ms < now()) throw new Error("the clock only moves forward");
      offset = ms - Date.now();
    },
  };
}
