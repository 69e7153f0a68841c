// The operation table is generated from the bundled spec and committed; this is its drift gate.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM script without declarations
import { renderOperations } from "../scripts/generate-operations.mjs";
import { OPERATIONS } from "../src/generated/operations.js";

const require = createRequire(import.meta.url);
const bundled = require.resolve("@animal-store/openapi/openapi.json");

describe("generated operation table", () => {
  it("equals what the bundled spec produces", async () => {
    const committed = readFileSync(
      new URL("../src/generated/operations.ts", import.meta.url),
      "utf8",
    );
    expect(await renderOperations(bundled)).toBe(committed);
  });

  it("lists every operation of the spec with its method and path", () => {
    const spec = JSON.parse(readFileSync(bundled, "utf8")) as {
      paths: Record<string, Record<string, { operationId?: string; deprecated?: boolean }>>;
    };
    const fromSpec = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => typeof op === "object" && op !== null && "operationId" in op)
        .map(([method, op]) => ({
          operationId: op.operationId,
          method: method.toUpperCase(),
          path,
          deprecated: op.deprecated === true,
        })),
    );
    expect(OPERATIONS).toEqual(fromSpec);
    expect(OPERATIONS.length).toBeGreaterThan(0);
  });
});
