/**
 * Integers in a URL are decimal digits (the project's rule, over the widgets fixture's `count`
 * and `widgetId`): what the
 * validator would coerce with JavaScript's number syntax (`0x10` as 16, `1e2` as 100, `%205` as
 * 5) is refused 400 validation_failed naming the parameter (planted fault: the syntax check
 * removed, so the validator's coercion answers).
 */
import { describe, expect, it } from "vitest";
import { integerParameters } from "../src/validation/validate.js";
import { contract, useFixtureServer } from "./support/serve.js";

const suite = useFixtureServer("strict-integers");
const get = (path: string) =>
  fetch(suite.api(path), { headers: { authorization: `Bearer ${suite.key}` } });

// Every integer parameter of the fixture, by where it is, read off the compiled contract.
const inQuery = contract.operations.flatMap((op) =>
  integerParameters(contract.spec, op).query.map((name) => ({ op, name, where: "query" })),
);
const inPath = contract.operations.flatMap((op) =>
  integerParameters(contract.spec, op).path.map((name) => ({ op, name, where: "path" })),
);
const LOOSE = ["0x10", "1e2", "%205", "%2B1", "+1", "01", "1.0", "5%20", "0b1", "0o7"];

/** `op`'s path with `value` for `name`, and 1 for any other path parameter. */
const pathOf = (op: (typeof inPath)[number]["op"], name: string, value: string) =>
  op.path.replace(/\{(\w+)\}/g, (_, param) => (param === name ? value : "1"));

describe("strict integer syntax (planted fault: the syntax check removed)", () => {
  it("the fixture has integer parameters in the query and in the path", () => {
    expect(inQuery.length).toBeGreaterThan(0);
    expect(inPath.length).toBeGreaterThan(0);
  });

  it.each(LOOSE)("query value %s: 400 validation_failed naming the parameter", async (value) => {
    for (const { op, name } of inQuery.filter(({ op }) => op.method === "GET")) {
      const response = await get(`${pathOf(op, "", "")}?${name}=${value}`);
      expect(response.status, `${op.operationId} ${name}=${value}`).toBe(400);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe("validation_failed");
      expect(body.message).toContain(`query/${name}`);
    }
  });

  it.each(LOOSE)("path value %s: 400 validation_failed naming the parameter", async (value) => {
    for (const { op, name } of inPath.filter(({ op }) => op.method === "GET")) {
      const response = await get(pathOf(op, name, value));
      expect(response.status, `${op.operationId} ${name}=${value}`).toBe(400);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe("validation_failed");
      expect(body.message).toContain(`params/${name}`);
    }
  });

  it("decimal digits still pass", async () => {
    for (const { op, name } of inQuery.filter(({ op }) => op.method === "GET")) {
      expect((await get(`${pathOf(op, "", "")}?${name}=10`)).status).toBe(200);
    }
    for (const { op, name } of inPath.filter(({ op }) => op.method === "GET")) {
      expect((await get(pathOf(op, name, "10"))).status).not.toBe(400);
    }
  });
});
