/**
 * The validation step against the real bundled contract, through a minimal Express app, so a
 * change in express-openapi-validator's internals (an upgrade that moves the modules this step
 * drives) fails here with a clear message rather than somewhere in the app.
 */
import type { AddressInfo } from "node:net";
import { loadBundledSpec } from "@animal-store/openapi";
import express, { type NextFunction, type Request, type Response } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EngineError } from "../errors.js";
import { compileContract } from "./contract.js";
import { contractValidation } from "./contract-validation.js";
import { buildOperationTable, resolveOperation } from "./operation-table.js";

let base = "";
let close: () => void = () => {};

beforeAll(async () => {
  const contract = compileContract(loadBundledSpec());
  const validation = contractValidation(contract, { validateResponses: false });
  await validation.ready;
  const app = express();
  app.use(
    contract.basePath,
    resolveOperation(buildOperationTable(contract.operations)),
    express.json(),
    validation.middleware,
    (req: Request, res: Response) => {
      const { openapi } = req as Request & { openapi: { pathParams: unknown } };
      res.json({ query: req.query, pathParams: openapi.pathParams, body: req.body });
    },
  );
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    // Only the engine's errors reach here: anything else is a bug, answered 500.
    const error = err instanceof EngineError ? err : undefined;
    res.status(error?.status ?? 500).json({ message: error?.message ?? String(err) });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  close = () => server.close();
});
afterAll(() => close());

async function call(path: string, init?: RequestInit) {
  const response = await fetch(base + path, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("contractValidation", () => {
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
