import { describe, expect, it } from "vitest";
import { parseMeasureOutput } from "./dev-bench.js";

describe("parseMeasureOutput", () => {
  it("takes the median of the runs' save-to-server times and the loop's last report", () => {
    const stdout = JSON.stringify({
      runs: 3,
      medianMs: 900,
      results: [
        { run: 1, serverMs: 1200, loopReport: "a" },
        { run: 2, serverMs: 800, loopReport: "b" },
        { run: 3, serverMs: 900, loopReport: "lint 80 ms, bundle 20 ms" },
      ],
    });
    expect(parseMeasureOutput(stdout)).toEqual({
      specEditToRestartMs: 900,
      runs: [1200, 800, 900],
      note: "Last save as the loop reported it: lint 80 ms, bundle 20 ms.",
    });
  });

  it("refuses output without runs", () => {
    expect(() => parseMeasureOutput('{"results":[]}')).toThrow("no runs");
  });
});
