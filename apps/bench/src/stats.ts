/** Small statistics for benchmark runs: medians, ratios, rounding, a median's bootstrap interval. */

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

/**
 * The percentile-bootstrap interval of the median of values that come in groups (each group one
 * pair of processes): each resample draws whole groups with replacement, then values within each
 * drawn group, so a process's own luck, which its runs share, is in the interval; resampling the
 * values alone would claim a precision the runs do not have. Seeded (mulberry32), so a file
 * renders the same interval every time. [NaN, NaN] for no values.
 */
export function medianInterval(
  groups: readonly (readonly number[])[],
  level = 0.95,
  resamples = 2000,
): [number, number] {
  const filled = groups.filter((g) => g.length > 0);
  if (filled.length === 0) return [Number.NaN, Number.NaN];
  let state = 1;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(from: readonly T[]) => from[Math.floor(random() * from.length)] as T;
  const medians: number[] = [];
  const sample: number[] = [];
  for (let i = 0; i < resamples; i++) {
    sample.length = 0;
    for (const _ of filled) {
      const group = filled.length === 1 ? (filled[0] as readonly number[]) : pick(filled);
      for (const _value of group) sample.push(pick(group));
    }
    medians.push(median(sample));
  }
  medians.sort((a, b) => a - b);
  const at = (q: number) => medians[Math.min(resamples - 1, Math.floor(q * resamples))] as number;
  return [at((1 - level) / 2), at(1 - (1 - level) / 2)];
}
