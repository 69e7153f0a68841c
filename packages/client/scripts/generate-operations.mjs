#!/usr/bin/env node
// Generates src/generated/operations.ts from the bundled contract: the operation table (method +
// path template → operationId), so the client can name the operation a response belongs to
// without restating the spec, and one call signature per deprecated operation, marked
// `@deprecated` with its dates and successor, which the client's methods put in front of their
// generic signature: TypeScript then reports a call of it as deprecated (6387) and editors strike
// it through. A newly deprecated operation gets it by regeneration alone.
// With --check it writes nothing and exits 1 when the committed file differs (the drift gate).
import { fileURLToPath } from "node:url";
import {
  bundledSpecPath,
  operationDeprecation,
  readSpec,
  specOperations,
} from "@animal-store/openapi";
import { writeOrCheckGenerated } from "../../../scripts/write-generated.mjs";

const target = fileURLToPath(new URL("../src/generated/operations.ts", import.meta.url));

const day = (date) => date.toISOString().slice(0, 10);

/**
 * The text of a deprecated operation's `@deprecated` tag: since when, its sunset and its
 * successor, as far as the contract says (`deprecated: true` alone gives the first sentence).
 */
function deprecationText(spec, op, operations) {
  const own = op.operation;
  const described = ["x-deprecated-since", "x-sunset", "x-replacement"].some((k) => k in own);
  const deprecation = described ? operationDeprecation(spec, op, operations) : undefined;
  const parts = [`${op.operationId} (${op.method} ${op.path}) is deprecated`];
  if (deprecation?.since) parts[0] += ` since ${day(deprecation.since)}`;
  if (deprecation?.sunset) {
    parts.push(`Sunset ${day(deprecation.sunset)}: from then on it answers 410 Gone.`);
  }
  if (deprecation?.successor) {
    const [method, path] = deprecation.successor.text.split(/[ ?]/);
    const target = operations.find((o) => o.method === method && o.path === path);
    parts.push(`Use ${deprecation.successor.text} (${target?.operationId}) instead.`);
  }
  parts[0] += ".";
  // A JSDoc comment must not be closed early by the contract's text.
  return parts.join(" ").replaceAll("*/", "*\\/");
}

/** Renders the operation table and the deprecated signatures of the spec at `specPath`. */
export async function renderOperations(specPath) {
  const { spec } = readSpec(specPath);
  const operations = specOperations(spec);
  const rows = operations.map(
    ({ operationId, method, path, deprecated }) =>
      `  { operationId: ${JSON.stringify(operationId)}, method: ${JSON.stringify(method)}, path: ${JSON.stringify(path)}, deprecated: ${deprecated} },`,
  );
  const deprecated = operations.filter((op) => op.deprecated);
  const signature = (op, params, returns) => {
    const path = JSON.stringify(op.path);
    const method = JSON.stringify(op.method.toLowerCase());
    return [
      `  /** @deprecated ${deprecationText(spec, op, operations)} */`,
      `  <Init extends MaybeOptionalInit<paths[${path}], ${method}>>(`,
      ...params.map((param) => `    ${param},`),
      "    ...init: InitParam<Init>",
      `  ): ${returns(`CallResult<paths[${path}][${method}], Init>`)};`,
    ];
  };
  const methods = [...new Set(deprecated.map((op) => op.method.toLowerCase()))];
  const byMethod = methods.flatMap((method) => [
    `  ${method}: {`,
    ...deprecated
      .filter((op) => op.method.toLowerCase() === method)
      .flatMap((op) =>
        signature(op, [`url: ${JSON.stringify(op.path)}`], (r) => `Promise<${r}>`).map(
          (line) => `  ${line}`,
        ),
      ),
    "  };",
  ]);
  const requests = deprecated.flatMap((op) =>
    signature(
      op,
      [`method: ${JSON.stringify(op.method.toLowerCase())}`, `url: ${JSON.stringify(op.path)}`],
      (r) => `Promise<${r}>`,
    ),
  );
  const pages = deprecated
    .filter((op) => op.method === "GET")
    .flatMap((op) =>
      signature(
        op,
        [`url: ${JSON.stringify(op.path)}`],
        (r) => `AsyncGenerator<Page<SuccessData<${r}>>, void, undefined>`,
      ),
    );
  return [
    "/**",
    " * This file was generated from openapi/openapi.yaml by packages/client/scripts/generate-operations.mjs.",
    " * Do not make direct changes to the file: edit the spec and run `pnpm generate`.",
    " */",
    'import type { OperationId, paths } from "@animal-store/api-types";',
    'import type { MaybeOptionalInit } from "openapi-fetch";',
    'import type { SuccessData } from "../api-error.js";',
    'import type { CallResult, InitParam } from "../client-types.js";',
    'import type { Page } from "../pages.js";',
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
    "/**",
    " * The deprecated operations' call signatures, per method: the client's methods put them in",
    " * front of their generic signature, so a call of a deprecated operation resolves to a",
    " * signature marked `@deprecated` (TypeScript 6387; editors strike the call through).",
    " */",
    "export interface DeprecatedCalls {",
    ...byMethod,
    "}",
    "",
    "/** The same signatures for `client.request(method, url, init)`. */",
    "export interface DeprecatedRequests {",
    ...requests,
    "}",
    "",
    "/** The same signatures for `client.pages(url, init)` (deprecated GET operations). */",
    "export interface DeprecatedPages {",
    ...pages,
    "}",
    "",
  ].join("\n");
}

async function main() {
  const fresh = await renderOperations(bundledSpecPath);
  await writeOrCheckGenerated(target, fresh, { check: process.argv.includes("--check") });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
