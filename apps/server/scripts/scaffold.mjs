#!/usr/bin/env node
// `pnpm scaffold`: for each operation of the bundled spec that has no handler in
// src/handlers/index.ts, writes
//   - src/handlers/<operation>.ts: a typed handler that answers 500 not_implemented until its body
//     is written, registered in src/handlers/index.ts (an import and an entry above the marker);
//   - the store method's signature in PetStore (src/store/types.ts, optional until KyselyStore
//     implements it; typed by OperationInput/OperationOutput);
//   - test/handlers/<operation>.test.ts: a test that fails until the handler is written.
// It never overwrites a file: an existing handler or test file is left as it is and named.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bundledSpecPath, readSpec, specOperations } from "@animal-store/openapi";

// SCAFFOLD_DIR and OPENAPI_BUNDLE (as the server reads it) let its test run on scratch copies.
const server = process.env.SCAFFOLD_DIR ?? fileURLToPath(new URL("..", import.meta.url));
const at = (path) => `${server}${path}`;
const MARKER = "  // scaffold: new handlers above this line";
const STORE_MARKER = "  // scaffold: new store methods above this line";

const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The operationIds src/handlers/index.ts registers. */
function registered(index) {
  const body = index.slice(index.indexOf("handlerFactories = {"), index.indexOf(MARKER));
  return new Set([...body.matchAll(/^ {2}(\w+),?$/gm)].map((match) => match[1]));
}

const handlerStub = (
  op,
) => `/** ${op.operationId}: ${op.summary ?? `${op.method} ${op.path}`}. Written by \`pnpm scaffold\`: fill in the body. */
import type { HandlerFactory } from "./types.js";

export const ${op.operationId}: HandlerFactory<"${op.operationId}"> = (_store) => async ({ reply }) =>
  reply(500, {
    code: "not_implemented",
    message: "The operation ${op.operationId} is not implemented yet by this server.",
    status: 500,
  });
`;

const testStub = (
  op,
) => `// Written by \`pnpm scaffold\`: fails until ${op.operationId}'s handler is written (the stub
// answers 500 not_implemented). Then replace it with the operation's real tests.
import { exampleRequest, loadBundledSpec, specOperations } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { startTestApp } from "../support/test-app.js";

const { spec } = loadBundledSpec();
const operation = specOperations(spec).find((op) => op.operationId === "${op.operationId}");

describe("${op.operationId}", () => {
  it("is implemented: its example request is not answered 500 not_implemented", async () => {
    if (!operation) throw new Error("${op.operationId} is not in the spec any more");
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

const { spec } = readSpec(process.env.OPENAPI_BUNDLE || bundledSpecPath);
let index = readFileSync(at("src/handlers/index.ts"), "utf8");
let store = readFileSync(at("src/store/types.ts"), "utf8");
if (!index.includes(MARKER) || !store.includes(STORE_MARKER)) {
  console.error("scaffold: the markers in src/handlers/index.ts or src/store/types.ts are gone");
  process.exit(1);
}
const have = registered(index);
const missing = specOperations(spec).filter((op) => !have.has(op.operationId));
if (missing.length === 0) console.log("scaffold: every operation of the spec has a handler");
/** The files this run wrote or changed, formatted at the end as `pnpm lint:code` wants them. */
const touched = new Set();
for (const op of missing) {
  const file = kebab(op.operationId);
  for (const [path, text] of [
    [`src/handlers/${file}.ts`, handlerStub(op)],
    [`test/handlers/${file}.test.ts`, testStub(op)],
  ]) {
    if (existsSync(at(path))) {
      console.log(`scaffold: ${path} exists, left as it is`);
      continue;
    }
    mkdirSync(at(path.slice(0, path.lastIndexOf("/"))), { recursive: true });
    writeFileSync(at(path), text);
    touched.add(at(path));
    console.log(`scaffold: wrote ${path}`);
  }
  const importLine = `import { ${op.operationId} } from "./${file}.js";\n`;
  if (!index.includes(importLine)) {
    const firstImport = index.indexOf("import { ");
    index = `${index.slice(0, firstImport)}${importLine}${index.slice(firstImport)}`;
  }
  index = index.replace(MARKER, `  ${op.operationId},\n${MARKER}`);
  console.log(`scaffold: registered ${op.operationId} in src/handlers/index.ts`);
  if (!store.includes(`  ${op.operationId}?(`)) {
    const signature = `  /** ${op.operationId} (${op.method} ${op.path}). Written by \`pnpm scaffold\`: implement it in KyselyStore, then make it required. */\n  ${op.operationId}?(input: OperationInput<"${op.operationId}">): Promise<OperationOutput<"${op.operationId}">>;\n`;
    store = store.replace(STORE_MARKER, `${signature}${STORE_MARKER}`);
    if (!store.includes("./operation-io.js")) {
      store = store.replace(
        /\n\n\/\*\* Which pets a list returns/,
        `\nimport type { OperationInput, OperationOutput } from "./operation-io.js";\n\n/** Which pets a list returns`,
      );
    }
    console.log(`scaffold: added ${op.operationId}'s signature to PetStore (src/store/types.ts)`);
  }
}
writeFileSync(at("src/handlers/index.ts"), index);
writeFileSync(at("src/store/types.ts"), store);
if (missing.length > 0) {
  touched.add(at("src/handlers/index.ts"));
  touched.add(at("src/store/types.ts"));
  // Formatted (imports sorted too) with the repository's Biome settings, so `pnpm test`
  // (lint:code) passes on what was written: the lines' length depends on the operation's name.
  const repo = fileURLToPath(new URL("../../..", import.meta.url));
  try {
    execFileSync(
      `${repo}node_modules/.bin/biome`,
      ["check", "--write", `--config-path=${repo}biome.json`, ...touched],
      { stdio: "pipe" },
    );
  } catch (error) {
    console.error(
      `scaffold: could not format the files written (${String(error.stderr ?? error.message).trim()}): run pnpm format`,
    );
  }
  console.log("scaffold: now fill in the bodies");
}
