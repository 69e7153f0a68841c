/**
 * The validation step against a whole contract (the widgets fixture), through a minimal Express app, so a
 * change in express-openapi-validator's internals (an upgrade that moves the modules this step
 * drives) fails here with a clear message rather than somewhere in the app.
 */
import type { NextFunction, Request, Response } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import { type ValidatingApp, validatingApp } from "../../test/support/validating-app.js";
import { EngineError } from "../errors.js";

let app: ValidatingApp;
let base = "";

beforeAll(async () => {
  app = await validatingApp(
    loadFixture().spec,
    (req: Request, res: Response) => {
      res.json({ query: req.query, pathParams: req.params, body: req.body });
    },
    (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
      // Only the engine's errors reach here: anything else is a bug, answered 500.
      const error = err instanceof EngineError ? err : undefined;
      res.status(error?.status ?? 500).json({ message: error?.message ?? String(err) });
    },
  );
  base = app.base;
});
afterAll(() => app.close());

async function call(path: string, init?: RequestInit) {
  const response = await fetch(base + path, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the compiled request validators", () => {
  it("passes a valid request on with its parameters coerced to their schema types", async () => {
    expect(await call("/widgets?count=5&shade=slate")).toEqual({
      status: 200,
      body: { query: { count: 5, shade: "slate" }, pathParams: {} },
    });
    const { body } = await call("/widgets/42");
    expect(body.pathParams).toEqual({ widgetId: 42 });
  });

  it("refuses what the contract does not allow, naming the field", async () => {
    for (const [path, text] of [
      ["/widgets?count=0", "query/count must be >= 1"],
      ["/widgets?shade=mauve", "query/shade must be equal to one of the allowed values"],
      ["/widgets?colour=red", "Unknown query parameter 'colour'"],
      ["/widgets/abc", "params/widgetId must be integer"],
    ] as const) {
      const { status, body } = await call(path);
      expect({ path, status }).toEqual({ path, status: 400 });
      expect(body.message).toContain(text);
    }
  });

  it("refuses a body that breaks NewWidget", async () => {
    const { status, body } = await call("/widgets", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ label: "Cog", sizeId: 1, colour: "red" }),
    });
    expect(status).toBe(400);
    expect(body.message).toContain("must NOT have additional properties");
  });

  it("answers a malformed percent-escape in a path parameter with 400", async () => {
    const { status, body } = await call("/widgets/%FF");
    expect(status).toBe(400);
    expect(body.message).toBe("path/widgetId is not a valid percent-encoded value");
  });
});
