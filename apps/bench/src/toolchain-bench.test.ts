import { describe, expect, it } from "vitest";
import { turboCacheDetail } from "./toolchain-bench.js";

describe("turboCacheDetail", () => {
  it("reads turbo's cache summary, so a 'cached' build that missed shows it", () => {
    const output =
      "\n Tasks:    9 successful, 9 total\nCached:    8 cached, 9 total\n  Time:    1.307s\n";
    expect(turboCacheDetail(output)).toBe("8/9 tasks from cache");
  });

  it("is undefined when turbo printed no summary", () => {
    expect(turboCacheDetail("x  × Failed")).toBeUndefined();
  });
});
