#!/usr/bin/env node
// Generates src/generated/operations.ts (method + path template → operationId) from the bundled
// contract, so the client can name the operation a response belongs to without restating the spec.
// With --check it writes nothing and exits 1 when the committed file differs (the drift gate).
import { fileURLToPath } from "node:url";
import { bundledSpecPath, readSpec, specOperations } from "@animal-store/openapi";
import { writeOrCheckGenerated } from "../../../scripts/write-generated.mjs";

const target = fileURLToPath(new URL("../src/generated/operations.ts", import.meta.url));

/** Renders the operation table of the spec at `specPath` as TypeScript source. */
export async function renderOperations(specPath) {
  const rows = specOperations(readSpec(specPath).spec).map(
    ({ operationId, method, path, deprecated }) =>
      `  { operationId: ${JSON.stringify(operationId)}, method: ${JSON.stringify(method)}, path: ${JSON.stringify(path)}, deprecated: ${deprecated} },`,
  );
  return [
    "/**",
    " * This file was generated from openapi/openapi.yaml by packages/client/scripts/generate-operations.mjs.",
    " * Do not make direct changes to the file: edit the spec and run `pnpm generate`.",
    " */",
    'import type { OperationId } from "@animal-store/api-types";',
    "",
    "/** One operation of the contract: how a request is recognised and what the spec calls it. */",
    "export interface OperationEntry {",
    "  readonly operationId: OperationId;",
    "  readonly method: string;",
    "  readonly path: string;",
    "  readonly deprecated: boolean;",
    "}",
    "",
    "/** Every operation of the contract, in spec order. */",
    "export const OPERATIONS: readonly OperationEntry[] = [",
    ...rows,
    "];",
    "",
  ].join("\n");
}

async function main() {
  const fresh = await renderOperations(bundledSpecPath);
  await writeOrCheckGenerated(target, fresh, { check: process.argv.includes("--check") });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
