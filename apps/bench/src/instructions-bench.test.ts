import { describe, expect, it } from "vitest";
import { callgrindTotal, dumpFilesInOrder } from "./instructions-bench.js";

describe("callgrindTotal", () => {
  it("reads the totals line of a dump, not the summary line callgrind leaves at 0 there", () => {
    const dump = [
      "version: 1",
      "events: Ir",
      "summary: 0",
      "fn=(1) main",
      "0 12",
      "totals: 756856328",
      "",
    ];
    expect(callgrindTotal(dump.join("\n"))).toBe(756_856_328);
  });

  it("refuses a file without totals rather than counting nothing", () => {
    expect(() => callgrindTotal("events: Ir\n")).toThrow(/totals/);
  });
});

describe("dumpFilesInOrder", () => {
  it("orders the numbered dumps numerically and leaves out the file written at exit", () => {
    const names = ["x.out.10", "x.out", "x.out.2", "x.out.1", "other.out.3", "x.out.1.bak"];
    expect(dumpFilesInOrder(names, "x.out")).toEqual(["x.out.1", "x.out.2", "x.out.10"]);
  });
});
