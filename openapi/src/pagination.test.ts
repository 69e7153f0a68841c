import { describe, expect, it } from "vitest";
import type { JsonObject } from "./document.js";
import { loadBundledSpec } from "./load.js";
import { operationPagination } from "./pagination.js";
import { operationById, specOperations } from "./spec-operations.js";

const { spec } = loadBundledSpec();
const operations = specOperations(spec);
const paged = operations.filter((op) => op.operation["x-pagination"] !== undefined);

describe("operationPagination", () => {
  it("reads the bad-cursor codes from the 400 examples, each a code of the Error enum", () => {
    const op = operationById(operations, paged[0]?.operationId ?? "");
    const { codes } = operationPagination(spec, op) ?? { codes: undefined };
    const schemas = spec.components?.schemas as JsonObject;
    const enumOf = ((schemas.Error as JsonObject).properties as JsonObject).code as JsonObject;
    expect(codes?.invalid).not.toBe(codes?.otherFilter);
    for (const code of Object.values(codes ?? {})) expect(enumOf.enum).toContain(code);
  });

  it("reads the cursor parameter of every operation with x-pagination, and none of the others", () => {
    expect(paged.length).toBeGreaterThan(0);
    for (const op of operations) {
      const raw = op.operation["x-pagination"] as JsonObject | undefined;
      expect(operationPagination(spec, op)).toEqual(
        raw === undefined
          ? undefined
          : {
              cursorParameter: raw.cursorParameter,
              pageSizeParameter: raw.pageSizeParameter,
              codes: { invalid: expect.any(String), otherFilter: expect.any(String) },
            },
      );
    }
  });

  it("refuses an extension that names no optional query parameter, or a response without Link", () => {
    const op = operationById(operations, paged[0]?.operationId ?? "");
    const edited = (pagination: unknown, parameters = op.parameters) => ({
      ...op,
      parameters,
      operation: { ...op.operation, "x-pagination": pagination },
    });
    const own = op.operation["x-pagination"] as JsonObject;
    expect(() => operationPagination(spec, edited({ ...own, cursorParameter: "nope" }))).toThrow(
      /x-pagination.cursorParameter must name an optional query parameter/,
    );
    expect(() =>
      operationPagination(spec, edited({ cursorParameter: own.cursorParameter })),
    ).toThrow(/x-pagination.pageSizeParameter must name an optional query parameter/);
    expect(() => operationPagination(spec, edited("cursor"))).toThrow(/x-pagination/);
    const name = String(own.cursorParameter);
    const required = op.parameters.map((p) => (p.name === name ? { ...p, required: true } : p));
    expect(() => operationPagination(spec, edited(own, required))).toThrow(
      /optional query parameter/,
    );
    const withoutLink = {
      ...edited(own),
      operation: { ...op.operation, responses: { "200": { description: "no headers" } } },
    };
    expect(() => operationPagination(spec, withoutLink)).toThrow(/must declare the Link header/);
    const responses = op.operation.responses as JsonObject;
    const without400 = {
      ...edited(own),
      operation: { ...op.operation, responses: { ...responses, "400": { description: "x" } } },
    };
    expect(() => operationPagination(spec, without400)).toThrow(
      /its 400 needs an example invalidCursor/,
    );
  });
});
