#!/usr/bin/env node
// Generates src/generated/openapi.ts from the bundled contract with openapi-typescript's
// in-process API (one TypeScript load, ~25 ms a run once loaded, versus ~1.6 s for the CLI).
// With --check it writes nothing and exits 1 when the committed file differs (the drift gate).
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { renderTypes } from "./render-types.mjs";

const require = createRequire(import.meta.url);
const bundledSpec = require.resolve("@animal-store/openapi/openapi.json");
const target = fileURLToPath(new URL("../src/generated/openapi.ts", import.meta.url));

async function main() {
  const check = process.argv.includes("--check");
  const fresh = await renderTypes(bundledSpec);
  const rel = relative(process.cwd(), target);
  if (check) {
    const committed = await readFile(target, "utf8").catch(() => "");
    if (committed !== fresh) {
      console.error(
        `${rel} is out of date with openapi/openapi.yaml.\nRun \`pnpm generate\` and commit the result.`,
      );
      process.exit(1);
    }
    console.log(`${rel} matches the spec.`);
    return;
  }
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, fresh);
  console.log(`wrote ${rel}`);
}

await main();
