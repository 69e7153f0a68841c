/**
 * The validation step against the real bundled contract, through a minimal Express app, so a
 * change in express-openapi-validator's internals (an upgrade that moves the modules this step
 * drives) fails here with a clear message rather than somewhere in the app.
 */
import { loadBundledSpec } from "@animal-store/openapi";
import type { NextFunction, Request, Response } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ValidatingApp, validatingApp } from "../../test/support/validating-app.js";
import { EngineError } from "../errors.js";

let app: ValidatingApp;
let base = "";

beforeAll(async () => {
  app = await validatingApp(
    loadBundledSpec().spec,
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
    expect(await call("/pets?limit=5&status=sold")).toEqual({
      status: 200,
      body: { query: { limit: 5, status: "sold" }, pathParams: {} },
    });
    const { body } = await call("/pets/42");
    expect(body.pathParams).toEqual({ petId: 42 });
  });

  it("refuses what the contract does not allow, naming the field", async () => {
    for (const [path, text] of [
      ["/pets?limit=0", "query/limit must be >= 1"],
      ["/pets?status=asleep", "query/status must be equal to one of the allowed values"],
      ["/pets?colour=red", "Unknown query parameter 'colour'"],
      ["/pets/abc", "params/petId must be integer"],
    ] as const) {
      const { status, body } = await call(path);
      expect({ path, status }).toEqual({ path, status: 400 });
      expect(body.message).toContain(text);
    }
  });

  it("refuses a body that breaks NewPet", async () => {
    const { status, body } = await call("/pets", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Rex", categoryId: 1, colour: "red" }),
    });
    expect(status).toBe(400);
    expect(body.message).toContain("must NOT have additional properties");
  });

  it("answers a malformed percent-escape in a path parameter with 400", async () => {
    const { status, body } = await call("/pets/%FF");
    expect(status).toBe(400);
    expect(body.message).toBe("path/petId is not a valid percent-encoded value");
  });
});
