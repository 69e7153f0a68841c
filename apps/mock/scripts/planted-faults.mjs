#!/usr/bin/env node
// `pnpm --filter @animal-store/mock planted-faults [--check] [index ...]`: plants each fault below
// in the any-contract stateful mock's source, runs the mock's own test that guards against it,
// and reports whether the test caught it; the file is restored after each (the engine's
// scripts/planted-faults.mjs, for this package). A fault whose text is no longer in its file is
// reported as an error (the code moved: update the fault), never as caught. Not part of
// `pnpm test` (each fault starts the mock again); do not edit the mock while it runs. `--check`
// only reports whether each fault's text is still in its file.
import { fileURLToPath } from "node:url";
import { runPlantedFaults } from "@animal-store/test-support/planted-faults";

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

process.exitCode = runPlantedFaults(FAULTS, mock, process.argv.slice(2));
