import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { EngineError } from "../errors.js";
import { rejectNonFiniteParameters } from "./finite-parameters.js";

function run(query: Record<string, unknown>, pathParams: Record<string, unknown> = {}): unknown {
  let passed: unknown = "not called";
  const req = { query, openapi: { pathParams } } as unknown as Request;
  rejectNonFiniteParameters(
    req,
    {} as Response,
    ((err?: unknown) => {
      passed = err;
    }) as NextFunction,
  );
  return passed;
}

describe("rejectNonFiniteParameters", () => {
  it("lets finite numbers and strings through", () => {
    expect(run({ limit: 5, status: "sold" }, { petId: 9007199254740991 })).toBeUndefined();
  });

  it("refuses ±Infinity and NaN in the query or the path with 400 validation_failed", () => {
    for (const [query, path, where] of [
      [{ limit: Number.POSITIVE_INFINITY }, {}, "query/limit"],
      [{ limit: Number.NEGATIVE_INFINITY }, {}, "query/limit"],
      [{}, { petId: Number.NaN }, "path/petId"],
    ] as const) {
      const err = run(query, path);
      expect(err).toBeInstanceOf(EngineError);
      expect(err).toMatchObject({ status: 400, code: "validation_failed" });
      expect((err as Error).message).toContain(where);
    }
  });
});
