import { describe, expect, it } from "vitest";
import { median, medianInterval, ratio, round } from "./stats.js";

describe("median", () => {
  it("takes the middle of an odd count and the mean of the middle two of an even count", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("is NaN for no rounds, so a missing figure stays visible", () => {
    expect(median([])).toBeNaN();
  });

  it("does not reorder its input", () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe("ratio and round", () => {
  it("divides, and is NaN without a usable baseline", () => {
    expect(ratio(50, 200)).toBe(0.25);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(1, Number.NaN)).toBeNaN();
  });

  it("rounds to the given decimals and keeps missing values as null", () => {
    expect(round(1.23456, 2)).toBe(1.23);
    expect(round(Number.NaN)).toBeNull();
  });
});

// Noisy runs drawn the way the pairs' ratios spread: log-normal around a known median.
function noisyRuns(count: number, trueMedian: number, sd: number, seed: number): number[] {
  let state = seed;
  const uniform = () => {
    // Park-Miller: the product stays below 2^53, so it is exact in a double.
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
  return Array.from({ length: count }, () => {
    const normal = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
    return trueMedian * Math.exp(sd * normal);
  });
}

describe("medianInterval of one group of runs", () => {
  it("holds the median and stays within the runs, narrower than their range", () => {
    const runs = noisyRuns(16, 1, 0.13, 7);
    const [low, high] = medianInterval([runs]);
    expect(low).toBeLessThanOrEqual(median(runs));
    expect(high).toBeGreaterThanOrEqual(median(runs));
    expect(low).toBeGreaterThan(Math.min(...runs));
    expect(high).toBeLessThan(Math.max(...runs));
  });

  it("is the value itself when every run agrees, and NaN for no runs", () => {
    expect(medianInterval([[1.02, 1.02, 1.02, 1.02]])).toEqual([1.02, 1.02]);
    expect(medianInterval([])).toEqual([Number.NaN, Number.NaN]);
    expect(medianInterval([[], []])).toEqual([Number.NaN, Number.NaN]);
  });

  it("gives the same interval every time (seeded), and narrows as runs are added", () => {
    const runs = noisyRuns(64, 1, 0.13, 11);
    expect(medianInterval([runs.slice(0, 16)])).toEqual(medianInterval([runs.slice(0, 16)]));
    const width = (values: number[]) => {
      const [low, high] = medianInterval([values]);
      return high - low;
    };
    expect(width(runs)).toBeLessThan(width(runs.slice(0, 16)));
  });

  it("holds the true median in about 95 of 100 sets of 16 noisy runs", () => {
    let held = 0;
    const sets = 300;
    for (let set = 0; set < sets; set++) {
      const [low, high] = medianInterval([noisyRuns(16, 1, 0.13, 1000 + set)], 0.95, 1000);
      if (low <= 1 && 1 <= high) held++;
    }
    expect(held / sets).toBeGreaterThan(0.9);
    expect(held / sets).toBeLessThan(0.995);
  }, 30_000);
});

describe("medianInterval of groups (launches)", () => {
  // Launches the way the pairs' processes differ: each group's values are shifted by the group's
  // own luck (log-normal, sd `between`), then spread within the group (sd `within`).
  function launches(
    groups: number,
    perGroup: number,
    between: number,
    within: number,
    seed: number,
  ) {
    const offsets = noisyRuns(groups, 1, between, seed);
    return offsets.map((offset, g) => noisyRuns(perGroup, offset, within, seed * 31 + g + 1));
  }

  it("holds the true median about 95 times in 100 where resampling runs alone claims too much", () => {
    let grouped = 0;
    let flat = 0;
    const sets = 200;
    for (let set = 0; set < sets; set++) {
      const groups = launches(8, 4, 0.03, 0.03, 5000 + set);
      const [gl, gh] = medianInterval(groups, 0.95, 1000);
      const [fl, fh] = medianInterval([groups.flat()], 0.95, 1000);
      if (gl <= 1 && 1 <= gh) grouped++;
      if (fl <= 1 && 1 <= fh) flat++;
    }
    expect(grouped / sets).toBeGreaterThan(0.88);
    expect(flat / sets).toBeLessThan(grouped / sets);
  }, 30_000);

  it("is wider than the runs' own interval when the groups disagree", () => {
    const groups = launches(8, 4, 0.05, 0.005, 9);
    const width = ([low, high]: [number, number]) => high - low;
    expect(width(medianInterval(groups))).toBeGreaterThan(width(medianInterval([groups.flat()])));
  });
});
