/**
 * A bounded load driver: at most `total` tasks, at most `concurrency` at once, and no new task
 * after `deadlineMs`; it always stops by itself. Not a benchmark: it reports, it does not judge.
 */

/** What a bounded run did. */
export interface LoadReport<T> {
  results: T[];
  started: number;
  elapsedMs: number;
  /** True when the deadline, not the count, ended the run. */
  stoppedByDeadline: boolean;
}

/** Runs `task(i)` for i = 0..total-1 with `concurrency` workers until done or past the deadline. */
export async function runBoundedLoad<T>(opts: {
  total: number;
  concurrency: number;
  deadlineMs: number;
  task: (index: number) => Promise<T>;
}): Promise<LoadReport<T>> {
  const start = performance.now();
  const results: T[] = [];
  let next = 0;
  let stoppedByDeadline = false;
  const worker = async () => {
    while (next < opts.total) {
      if (performance.now() - start > opts.deadlineMs) {
        stoppedByDeadline = true;
        return;
      }
      const index = next++;
      results.push(await opts.task(index));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker));
  return { results, started: next, elapsedMs: performance.now() - start, stoppedByDeadline };
}
