#!/usr/bin/env node
// `pnpm --filter @animal-store/mock planted-faults [--check] [index ...]`: plants each fault below
// in the any-contract stateful mock's source, runs the mock's own test that guards against it,
// and reports whether the test caught it; the file is restored after each (the engine's
// scripts/planted-faults.mjs, for this package). A fault whose text is no longer in its file is
// reported as an error (the code moved: update the fault), never as caught. Not part of
// `pnpm test` (each fault starts the mock again); do not edit the mock while it runs. `--check`
// only reports whether each fault's text is still in its file.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const mock = fileURLToPath(new URL("..", import.meta.url));
const APPLICATION = "src/stateful/any-contract/application.mjs";
const SUITE = "test/any-contract.test.ts";

/** [what, file (relative to the package), text, replacement, test file, test name filter] */
const FAULTS = [
  [
    "a list filter ignored",
    APPLICATION,
    "(name) => query[name] === undefined || matches(entry.item[name], query[name]),",
    "(name) => query[name] === undefined || matches(entry.item[name], entry.item[name]),",
    SUITE,
    "creates, reads, lists with a filter",
  ],
  [
    "an offset ignored (every page the first)",
    APPLICATION,
    'if (paging.style === "offset" && typeof position === "number") start = position;',
    'if (paging.style === "offset" && typeof position === "number") start = 0;',
    SUITE,
    "creates, reads, lists with a filter",
  ],
  [
    "a cursor ignored",
    APPLICATION,
    "start = filtered.findIndex((entry) => entry.seq > after);",
    "start = after < 0 ? -1 : 0;",
    SUITE,
    "pages crates by cursor",
  ],
  [
    "PATCH replaces instead of merging",
    APPLICATION,
    "? { ...entry.item, ...(isJsonObject(body) ? body : {}) }",
    "? { ...(isJsonObject(body) ? body : {}) }",
    SUITE,
    "creates, reads, lists with a filter",
  ],
  [
    "DELETE keeps the item",
    APPLICATION,
    "store.remove(resource, params, entry.id);",
    "void store;",
    SUITE,
    "creates, reads, lists with a filter",
  ],
  [
    "a scoped collection shared by every parent",
    APPLICATION,
    "return JSON.stringify(resource.scopeParameters.map((name) => String(scope[name])));",
    "return JSON.stringify(resource.scopeParameters.map(() => String(scope)));",
    SUITE,
    "keeps a grower's plots apart",
  ],
  [
    "Prefer ignored on a resource",
    APPLICATION,
    "stateful && !choosesAnswer(preference)",
    "stateful && !choosesAnswer({})",
    SUITE,
    "Prefer choosing",
  ],
  [
    "--seed N ignored",
    APPLICATION,
    "...synthesizedItems(spec, resource, options.seedCount ?? 0),",
    "...synthesizedItems(spec, resource, 0),",
    SUITE,
    "adds N synthesized items",
  ],
];

const run = (command, args) =>
  spawnSync(command, args, {
    cwd: mock,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });

const args = process.argv.slice(2);
const checkOnly = args.includes("--check");
const only = args.filter((arg) => arg !== "--check").map(Number);
let caught = 0;
let missed = 0;
let errors = 0;
for (const [index, [what, file, text, replacement, test, name]] of FAULTS.entries()) {
  if (only.length > 0 && !only.includes(index)) continue;
  const path = new URL(`../${file}`, import.meta.url);
  const original = readFileSync(path, "utf8");
  if (!original.includes(text)) {
    console.log(
      `[${index}] ${what}: ERROR, its text is not in ${file} (the code moved: update the fault)`,
    );
    errors++;
    continue;
  }
  if (checkOnly) {
    console.log(`[${index}] ${what}: its text is in ${file}`);
    continue;
  }
  // A function, so `$` in a replacement is written as it is (not a replacement pattern).
  writeFileSync(
    path,
    original.replace(text, () => replacement),
  );
  try {
    const result = run("pnpm", ["exec", "vitest", "run", test, ...(name ? ["-t", name] : [])]);
    // A run that finds no test to run passes: make sure the filter still names one.
    const ran = /Tests\s+\d+ (passed|failed)/.test(result.stdout);
    const failed = result.status !== 0 && /Tests\s+.*\d+ failed/.test(result.stdout);
    if (!ran) {
      console.log(`[${index}] ${what}: ERROR, no test of ${test} matches "${name}"`);
      errors++;
    } else if (failed) {
      caught++;
      console.log(`[${index}] ${what}: caught by ${test}${name ? ` (${name})` : ""}`);
    } else {
      missed++;
      console.log(`[${index}] ${what}: NOT caught by ${test}${name ? ` (${name})` : ""}`);
    }
  } finally {
    writeFileSync(path, original);
  }
}
console.log(
  checkOnly ? `${errors} errors` : `${caught} caught, ${missed} not caught, ${errors} errors`,
);
process.exitCode = missed === 0 && errors === 0 ? 0 : 1;
