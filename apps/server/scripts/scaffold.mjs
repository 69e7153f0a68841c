#!/usr/bin/env node
// `pnpm scaffold [--prune]`: the Animal Store's use of @animal-store/scaffold (packages/scaffold,
// which serves any application on the engine). For each operation of the bundled spec without a
// handler in src/handlers/index.ts it writes the handler stub (it answers `not_implemented` until
// its body is written), registers it, adds the store method's signature to PetStore
// (src/store/types.ts) and writes a test that fails until the handler is written. Handlers whose
// operation left the spec are named; --prune removes them. It never overwrites a file, and it
// reads only text: it runs while the handlers do not compile.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { bundledSpecPath, readSpec } from "@animal-store/openapi";
import { scaffold } from "@animal-store/scaffold";

const USAGE = `Usage: pnpm scaffold [--prune]

Writes a handler stub, its registration, its store signature and a failing test for each
operation of openapi/openapi.yaml the server has no handler for; names the handlers whose
operation left the spec.

  --prune   also remove those handlers (entry, import, files, scaffold-written store signature)
  --help    this text`;

// pnpm may pass a lone "--" before the arguments.
const args = process.argv.slice(2).filter((arg) => arg !== "--");
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = args.filter((arg) => arg !== "--prune");
if (unknown.length > 0) {
  console.error(`scaffold: unknown argument ${unknown[0]}\n\n${USAGE}`);
  process.exit(2);
}

const testStub = (
  op,
) => `// Written by \`pnpm scaffold\`: fails until ${op.operationId}'s handler is written (the stub
// answers 500 not_implemented). Then replace it with the operation's real tests.
import { exampleRequest, loadBundledSpec, specOperations } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { startTestApp } from "../support/test-app.js";

const { spec } = loadBundledSpec();
const operation = specOperations(spec).find((op) => op.operationId === ${JSON.stringify(op.operationId)});

describe(${JSON.stringify(op.operationId)}, () => {
  it("is implemented: its example request is not answered 500 not_implemented", async () => {
    if (!operation) throw new Error(${JSON.stringify(`${op.operationId} is not in the spec any more`)});
    const request = exampleRequest(spec, "", operation);
    const app = await startTestApp();
    try {
      const answer = await app.api(request.path, {
        method: request.method,
        headers: { ...request.headers, "content-type": "application/json" },
        body: request.body,
      });
      expect(await answer.json()).not.toMatchObject({ code: "not_implemented" });
    } finally {
      await app.close();
    }
  });
});
`;

const repo = fileURLToPath(new URL("../../..", import.meta.url));

// SCAFFOLD_DIR and OPENAPI_BUNDLE (as the server reads it) let its test run on scratch copies.
const dir = process.env.SCAFFOLD_DIR ?? fileURLToPath(new URL("..", import.meta.url));
let result;
try {
  result = scaffold({
    dir,
    spec: readSpec(process.env.OPENAPI_BUNDLE || bundledSpecPath).spec,
    store: { file: "src/store/types.ts", interface: "PetStore" },
    testStub,
    prune: args.includes("--prune"),
  });
} catch (error) {
  console.error(`scaffold: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
if (result.touched.length > 0) {
  // Formatted (imports sorted too) with the repository's Biome settings, so `pnpm test`
  // (lint:code) passes on what was written: the lines' length depends on the operation's name.
  try {
    execFileSync(
      `${repo}node_modules/.bin/biome`,
      ["check", "--write", `--config-path=${repo}biome.json`, ...result.touched],
      { stdio: "pipe" },
    );
  } catch (error) {
    console.error(
      `scaffold: could not format the files written (${String(error.stderr ?? error.message).trim()}): run pnpm format`,
    );
  }
}
if (result.written.length > 0) console.log("scaffold: now fill in the bodies");
