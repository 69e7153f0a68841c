#!/usr/bin/env node
// Generates src/generated/operations.ts (method + path template → operationId) from the bundled
// contract, so the client can name the operation a response belongs to without restating the spec.
// With --check it writes nothing and exits 1 when the committed file differs (the drift gate).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { writeOrCheckGenerated } from "../../../scripts/write-generated.mjs";

const require = createRequire(import.meta.url);
const target = fileURLToPath(new URL("../src/generated/operations.ts", import.meta.url));
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Renders the operation table of the spec at `specPath` as TypeScript source. */
export async function renderOperations(specPath) {
  const spec = JSON.parse(await readFile(specPath, "utf8"));
  const rows = [];
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      if (!operation.operationId)
        throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      rows.push(
        `  { operationId: ${JSON.stringify(operation.operationId)}, method: ${JSON.stringify(method.toUpperCase())}, path: ${JSON.stringify(path)}, deprecated: ${operation.deprecated === true} },`,
      );
    }
  }
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
  const fresh = await renderOperations(require.resolve("@animal-store/openapi/openapi.json"));
  await writeOrCheckGenerated(target, fresh, { check: process.argv.includes("--check") });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
