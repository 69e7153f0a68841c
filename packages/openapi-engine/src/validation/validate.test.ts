import { specOperations } from "@animal-store/openapi";
import type { NextFunction, Request } from "express";
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import { EngineError } from "../errors.js";
import type { RequestValidator } from "./validate.js";
import { firstLooseInteger, integerParameters, validateRequest } from "./validate.js";

/** Runs the step on a request with `params` (as the router left them) whose validator coerces as `coerce` does. */
function run(
  query: Record<string, unknown>,
  params: Record<string, unknown> = {},
  coerce: (req: Request) => void = () => {},
): { passed: unknown; params: Record<string, unknown> } {
  let passed: unknown = "not called";
  const req = { query, params } as unknown as Request;
  const validate: RequestValidator = (r) => coerce(r);
  validateRequest(
    req,
    {
      locals: {
        operation: {
          names: Object.keys(params),
          integers: { query: [], path: [] },
          validateRequest: validate,
        },
      },
    } as never,
    ((err?: unknown) => {
      passed = err;
    }) as NextFunction,
  );
  return { passed, params: req.params };
}

describe("the validation step", () => {
  it("decodes the router's path values before the validator sees them", () => {
    let seen: unknown;
    const { passed, params } = run({}, { name: "caf%C3%A9%2Fx" }, (req) => {
      seen = req.params.name;
    });
    expect(passed).toBeUndefined();
    expect(seen).toBe("café/x");
    expect(params).toEqual({ name: "café/x" });
  });

  it("refuses a malformed escape with 400, before the validator runs", () => {
    let ran = false;
    const { passed } = run({}, { widgetId: "%FF" }, () => {
      ran = true;
    });
    expect(passed).toMatchObject({ status: 400, code: "validation_failed" });
    expect((passed as Error).message).toBe("path/widgetId is not a valid percent-encoded value");
    expect(ran).toBe(false);
  });

  it("converts the validator's own error to the engine's", () => {
    const failure = Object.assign(new Error("request/query/limit must be >= 1"), {
      status: 400,
      errors: [{ path: "/query/limit", message: "must be >= 1" }],
    });
    const { passed } = run({ limit: 0 }, {}, () => {
      throw failure;
    });
    expect(passed).toBeInstanceOf(EngineError);
    expect(passed).toMatchObject({ status: 400, message: "query/limit must be >= 1" });
  });

  it("lets finite numbers and strings through", () => {
    expect(
      run({ limit: 5, status: "sold" }, { widgetId: "9007199254740991" }).passed,
    ).toBeUndefined();
  });

  it("refuses ±Infinity and NaN the validator let through, in the query or the path", () => {
    for (const [query, coerced, where] of [
      [{ limit: Number.POSITIVE_INFINITY }, {}, "query/limit"],
      [{ limit: Number.NEGATIVE_INFINITY }, {}, "query/limit"],
      [{}, { widgetId: Number.NaN }, "path/widgetId"],
    ] as const) {
      const { passed } = run(query, { widgetId: "1" }, (req) => Object.assign(req.params, coerced));
      expect(passed).toBeInstanceOf(EngineError);
      expect(passed).toMatchObject({ status: 400, code: "validation_failed" });
      expect((passed as Error).message).toContain(where);
    }
  });
});

describe("firstLooseInteger", () => {
  it.each(["0x10", "1e2", " 5", "5 ", "+1", "01", "1.0", "0b1", "0o7", "", "-0", "00"])(
    "refuses %j",
    (value) => {
      expect(firstLooseInteger({ n: value }, ["n"])).toBe("n");
    },
  );

  it.each(["0", "7", "10", "9007199254740993", "-3"])("passes %j", (value) => {
    expect(firstLooseInteger({ n: value }, ["n"])).toBeUndefined();
  });

  it("leaves what is no number at all, absent values and arrays to the validator", () => {
    expect(firstLooseInteger({ a: "abc", b: "1.5", c: ["0x1"] }, ["a", "b", "c", "d"])).toBe(
      undefined,
    );
  });
});

describe("integerParameters", () => {
  it("finds the integer parameters of each operation, $refs resolved", () => {
    const { spec } = loadFixture();
    const found = specOperations(spec).map((op) => integerParameters(spec, op));
    expect(found.some((p) => p.query.length > 0)).toBe(true);
    expect(found.some((p) => p.path.length > 0)).toBe(true);
  });
});
