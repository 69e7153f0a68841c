#!/usr/bin/env node
// `pnpm --filter @animal-store/server planted-faults [index ...]`: plants each fault below in the
// Animal Store's own code or its bundled spec, runs the test that guards against it, and reports
// whether the test caught it; the file is restored after each. The engine's faults are the
// engine's (packages/openapi-engine/scripts/planted-faults.mjs, run on its own suite). Not part of
// `pnpm test`: run it after changing a guarded rule or its test, and do not edit, bundle or commit
// while it runs (a fault is in the working tree meanwhile).
import { fileURLToPath } from "node:url";
import { runPlantedFaults } from "@animal-store/test-support/planted-faults";

const server = fileURLToPath(new URL("..", import.meta.url));

/** [what, file (relative to apps/server), text, replacement, test file, test name filter] */
const FAULTS = [
  [
    "a file one GET passes through left out of the engine README's road table",
    "../../packages/openapi-engine/README.md",
    "| 12 | `apps/server/src/paging/keyset-paging.ts` |",
    "| 12 | the paging |",
    "test/one-get-road.test.ts",
    "passes through the files",
  ],
  [
    "a file the GET does not reach named in the engine README's road table",
    "../../packages/openapi-engine/README.md",
    "| 7 | `auth/security-schemes.ts` |",
    "| 7 | `auth/security-schemes.ts`, `deprecation/deprecation.ts` |",
    "test/one-get-road.test.ts",
    "passes through the files",
  ],
  [
    "NewPet without additionalProperties: false (bundle)",
    "../../openapi/dist/openapi.json",
    '"additionalProperties": false,\n        "required": [\n          "name",',
    '"required": [\n          "name",',
    "test/contract-bodies.test.ts",
    "NewPet refuses",
  ],
  [
    "PetName's pattern without the C1 controls (bundle)",
    "../../openapi/dist/openapi.json",
    '"pattern": "^[^\\\\u0000-\\\\u001F\\\\u007F-\\\\u009F]+$"',
    '"pattern": "^[^\\\\u0000-\\\\u001F\\\\u007F]+$"',
    "test/contract-bodies.test.ts",
    "C1 controls",
  ],
  [
    "PostgreSQL creates written one statement each (no group commit)",
    "src/store/batched-creates.ts",
    "    private readonly maxBatch = 500,",
    "    private readonly maxBatch = 1,",
    "src/store/batched-creates.test.ts",
    "as one statement",
  ],
  [
    "a refused PostgreSQL batch fails every create in it",
    "src/store/batched-creates.ts",
    "      for (const item of batch) await this.commit([item]);",
    "      for (const { reject } of batch) reject(err);",
    "src/store/batched-creates.test.ts",
    "only the refused one fails",
  ],
  [
    "a batch's rows handed out in the order PostgreSQL returned them, unchecked",
    "src/store/batched-creates.ts",
    "  if (sorted.every((row, i) => contentKey(row) === keys[i])) return sorted;",
    "  if (keys.length > 0) return sorted;",
    "src/store/batched-creates.test.ts",
    "by content",
  ],
];

process.exitCode = runPlantedFaults(FAULTS, server, process.argv.slice(2));
