import { describe, expect, it } from "vitest";
import { ABORTED, LATENCY_BUCKETS, OUTSIDE_API, RequestTally, UNMATCHED } from "./tally.js";

describe("RequestTally", () => {
  it("counts by operation, method and status, with the fixed labels after the operations", () => {
    const tally = new RequestTally(["listThings", "getThing"]);
    tally.record(0, "GET", 200, 0.002);
    tally.record(0, "GET", 200, 0.002);
    tally.record(0, "HEAD", 200, 0.002);
    tally.record(tally.unmatched, "GET", 404, 0.001);
    tally.record(tally.outsideApi, "BREW", 405, 0.001);
    tally.record(1, "GET", ABORTED, 0.5);
    expect([...tally.counts()]).toEqual([
      { operationId: "listThings", method: "GET", status: "200", count: 2 },
      { operationId: "listThings", method: "HEAD", status: "200", count: 1 },
      { operationId: "getThing", method: "GET", status: "aborted", count: 1 },
      { operationId: UNMATCHED, method: "GET", status: "404", count: 1 },
      // A method outside the fixed list is never a label of its own.
      { operationId: OUTSIDE_API, method: "OTHER", status: "405", count: 1 },
    ]);
  });

  it("puts each latency in the first bucket whose bound it does not exceed", () => {
    const tally = new RequestTally(["op"]);
    tally.record(0, "GET", 200, LATENCY_BUCKETS[0] as number);
    tally.record(0, "GET", 200, 1000);
    const [op] = [...tally.latencies()];
    expect(op?.buckets[0]).toBe(1);
    expect(op?.buckets[LATENCY_BUCKETS.length]).toBe(1);
    expect(op?.seconds).toBeCloseTo(1000.001);
  });
});
