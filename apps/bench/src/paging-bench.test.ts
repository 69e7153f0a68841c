import { describe, expect, it } from "vitest";
import { pairRunOrder } from "./paging-bench.js";

describe("pairRunOrder", () => {
  const pairs = [
    ["a1", "a2"],
    ["b1", "b2"],
  ];

  it("runs each pair back to back, baseline first in even rounds and last in odd ones", () => {
    expect(pairRunOrder(pairs, 0)).toEqual(["a1", "a2", "b1", "b2"]);
    expect(pairRunOrder(pairs, 1)).toEqual(["a2", "a1", "b2", "b1"]);
    expect(pairRunOrder(pairs, 2)).toEqual(["a1", "a2", "b1", "b2"]);
  });
});
