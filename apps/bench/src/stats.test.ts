import { describe, expect, it } from "vitest";
import { median, microsPerCall, ratio, round } from "./stats.js";

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

describe("ratio, round and microsPerCall", () => {
  it("divides, and is NaN without a usable baseline", () => {
    expect(ratio(50, 200)).toBe(0.25);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(1, Number.NaN)).toBeNaN();
  });

  it("rounds to the given decimals and keeps missing values as null", () => {
    expect(round(1.23456, 2)).toBe(1.23);
    expect(round(Number.NaN)).toBeNull();
  });

  it("converts a batch's milliseconds to microseconds per call", () => {
    expect(microsPerCall(50, 200)).toBe(250);
  });
});
