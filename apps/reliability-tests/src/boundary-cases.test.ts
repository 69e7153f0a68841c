import { describe, expect, it } from "vitest";
import { boundaryCases } from "./boundary-cases.js";
import { fuzzContract } from "./fuzz-contract.js";
import { analyseRequest } from "./request-analysis.js";
import { operationKeywords } from "./schema-keywords.js";

const { doc, operations, validator } = fuzzContract();

describe("keyword cells and boundary cases", () => {
  for (const op of operations) {
    const cells = operationKeywords(op, doc);
    const cases = boundaryCases(op, doc);

    it(`${op.operationId}: every keyword its input uses has a boundary case, unless none can exist`, () => {
      const takesInput = op.parameters.length > 0 || op.requestBody !== null;
      expect(cells.length > 0).toBe(takesInput);
      for (const cell of cells) {
        const has = cases.some((c) => c.location === cell.location && c.keyword === cell.keyword);
        expect(has, `${cell.location} ${cell.keyword}`).toBe(cell.unreachable === undefined);
      }
    });

    it(`${op.operationId}: each case breaks only what it names, or sits on its edge and is valid`, () => {
      for (const c of cases) {
        const analysis = analyseRequest(op, doc, validator, c.request);
        expect(analysis, c.label).not.toBeNull();
        if (c.side === "beyond") {
          expect(
            analysis?.violated.map((v) => v.keyword),
            c.label,
          ).toContain(c.keyword);
          expect(new Set(analysis?.violated.map((v) => v.location)), c.label).toEqual(
            new Set([c.location]),
          );
        } else {
          expect(analysis?.violated, c.label).toEqual([]);
          expect(
            analysis?.edges.some((e) => e.location === c.location && e.keyword === c.keyword),
            c.label,
          ).toBe(true);
        }
      }
    });
  }

  it("names a string parameter's type as one no request can break", () => {
    const text = operations
      .flatMap((op) => operationKeywords(op, doc))
      .filter((c) => c.unreachable);
    for (const cell of text) {
      expect(cell.keyword).toBe("type");
      expect(cell.schema.type).toBe("string");
      expect(cell.slot.in).not.toBe("body");
    }
  });
});
