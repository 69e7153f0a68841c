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

/** A seeded pseudo-random source in [0, 1) (mulberry32): the same interval each time a file renders. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The percentile-bootstrap interval of a median: the medians of `resamples` samples, each made by
 * `draw` from a seeded random source, cut at the two tails of `level`.
 */
function bootstrapMedianInterval(
  draw: (random: () => number) => readonly number[],
  level: number,
  resamples: number,
  seed: number,
): [number, number] {
  const random = seededRandom(seed);
  const medians = new Array<number>(resamples);
  for (let i = 0; i < resamples; i++) medians[i] = median(draw(random));
  medians.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  const at = (q: number) => medians[Math.min(resamples - 1, Math.floor(q * resamples))] as number;
  return [at(tail), at(1 - tail)];
}

/**
 * The percentile-bootstrap interval of the median of `values`: the median of `resamples` samples
 * drawn with replacement, cut at the two tails of `level`. It says how far the median of runs as
 * noisy as these could land from run to run, which the lowest and highest run do not: those widen
 * with every run added, the interval narrows. [NaN, NaN] for no values.
 */
export function medianInterval(
  values: readonly number[],
  level = 0.95,
  resamples = 2000,
  seed = 1,
): [number, number] {
  if (values.length === 0) return [Number.NaN, Number.NaN];
  const sample = new Array<number>(values.length);
  return bootstrapMedianInterval(
    (random) => {
      for (let j = 0; j < values.length; j++)
        sample[j] = values[Math.floor(random() * values.length)] as number;
      return sample;
    },
    level,
    resamples,
    seed,
  );
}

/**
 * The bootstrap interval of the median of values that come in groups (each group one pair of
 * processes): each resample draws whole groups with replacement, then values within each drawn
 * group. When groups differ by more than their values' spread predicts (a process's own luck),
 * resampling values alone would claim a precision the runs do not have; resampling groups first
 * carries that luck into the interval. One group (or none): `medianInterval` of the values.
 */
export function groupedMedianInterval(
  groups: readonly (readonly number[])[],
  level = 0.95,
  resamples = 2000,
  seed = 1,
): [number, number] {
  const filled = groups.filter((g) => g.length > 0);
  if (filled.length < 2) return medianInterval(filled.flat(), level, resamples, seed);
  const sample: number[] = [];
  return bootstrapMedianInterval(
    (random) => {
      sample.length = 0;
      for (let g = 0; g < filled.length; g++) {
        const group = filled[Math.floor(random() * filled.length)] as readonly number[];
        for (let j = 0; j < group.length; j++)
          sample.push(group[Math.floor(random() * group.length)] as number);
      }
      return sample;
    },
    level,
    resamples,
    seed,
  );
}
