/** Small statistics for benchmark rounds: medians of rounds, ratios to baselines, rounding. */

/** The median of `values`; NaN for none (a missing figure stays visibly missing). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** `value / baseline`, or NaN when either is missing or the baseline is zero. */
export function ratio(value: number, baseline: number): number {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return Number.NaN;
  return value / baseline;
}

/** Rounds to `digits` decimals for the JSON file, keeping NaN as null. */
export function round(value: number, digits = 2): number | null {
  if (!Number.isFinite(value)) return null;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Time per call in µs over a batch: total ms divided by the calls it made. */
export function microsPerCall(totalMs: number, calls: number): number {
  return (totalMs * 1000) / calls;
}
