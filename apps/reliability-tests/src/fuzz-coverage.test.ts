import { describe, expect, it } from "vitest";
import { percent, renderCoverage } from "./coverage-report.js";
import { fuzzContract } from "./fuzz-contract.js";
import { CoverageLedger } from "./fuzz-coverage.js";
import { operationKeywords } from "./schema-keywords.js";

const contract = fuzzContract();
const [op] = contract.operations;
if (!op) throw new Error("the contract has no operation");
const statuses = Object.keys(op.responses);

describe("coverage ledger", () => {
  it("names every documented status nothing answered with, and counts the rest", () => {
    const ledger = new CoverageLedger(contract);
    ledger.recordResponse(op, statuses[0] as string, "some check", []);
    ledger.recordResponse(op, statuses[0] as string, "another check", []);
    const { summary, statuses: rows } = ledger.report();
    const total = contract.operations.reduce((n, o) => n + Object.keys(o.responses).length, 0);
    expect(summary.statuses).toEqual({ covered: 1, total });
    expect(summary.missingStatuses).toContain(`${op.operationId} ${statuses[1]}`);
    expect(rows[0]).toMatchObject({ responses: 2, checks: ["another check", "some check"] });
    expect(rows[0]?.headersNeverSeen.length).toBeGreaterThan(0);
  });

  it("credits a keyword when a request broke it and was refused, not when it was let through", () => {
    const ledger = new CoverageLedger(contract);
    const cell = operationKeywords(op, contract.doc).find(
      (c) => !c.unreachable && c.keyword !== "enum",
    );
    if (!cell) throw new Error("no keyword to credit");
    const broke = { violated: [{ location: cell.location, keyword: cell.keyword }], edges: [] };
    ledger.credit(op, broke, "other");
    const find = () =>
      ledger
        .report()
        .keywords.find((k) => k.location === cell.location && k.keyword === cell.keyword);
    expect(find()?.exercised).toBe(false);
    ledger.credit(op, broke, "refused");
    expect(find()).toMatchObject({ refused: 1, exercised: true });
  });

  it("counts an enum's edge only once every member was accepted", () => {
    const withEnum = contract.operations
      .flatMap((o) => operationKeywords(o, contract.doc).map((cell) => ({ o, cell })))
      .find(({ cell }) => cell.keyword === "enum");
    if (!withEnum) throw new Error("the contract has no enum");
    const { o, cell } = withEnum;
    const members = cell.schema.enum as unknown[];
    const ledger = new CoverageLedger(contract);
    const find = () =>
      ledger
        .report()
        .keywords.find(
          (k) =>
            k.operationId === o.operationId && k.location === cell.location && k.keyword === "enum",
        );
    for (const [i, member] of members.entries()) {
      expect(find()?.exercised).toBe(false);
      const edge = { location: cell.location, keyword: "enum", member: JSON.stringify(member) };
      ledger.credit(o, { violated: [], edges: [edge] }, "accepted");
      if (i < members.length - 1) expect(find()?.exercised).toBe(false);
    }
    expect(find()?.exercised).toBe(true);
  });

  it("renders tables with the figures and what is missing", () => {
    const ledger = new CoverageLedger(contract);
    ledger.recordCheck("a check", op, { applied: false, note: "nothing to do" });
    const text = renderCoverage(ledger.report(), { seed: 3, runs: 4 });
    expect(text).toContain("FUZZ_SEED=3, FUZZ_RUNS=4");
    expect(text).toMatch(/Documented statuses exercised: 0\/\d+ \(0\.0%\)/);
    expect(text).toContain(`missing: ${op.operationId} ${statuses[0]}`);
    expect(text).toContain("NOT EXERCISED");
    expect(text).toContain("a check: applied to NO operation");
    expect(percent({ covered: 2, total: 3 })).toBe("2/3 (66.7%)");
  });
});
