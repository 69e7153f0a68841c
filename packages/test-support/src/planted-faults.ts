/**
 * The runner of the packages' planted-fault scripts (`scripts/planted-faults.mjs` of the engine,
 * the server, the client and the mock): each fault is an exact-text edit of a file, planted in
 * the working tree, and the test that guards against it is run with vitest; the file is restored
 * after each. A fault whose text is no longer in its file is an error (the code moved: update the
 * fault), never "caught"; so is a test filter that names no test (a run that runs nothing passes).
 *
 * Arguments: `--check` only reports whether each fault's text is still in its file; numbers
 * pick faults by index. Not part of `pnpm test` (one vitest run per fault).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What `--help` prints (nothing is planted or run). */
export const USAGE = `usage: planted-faults.mjs [--check] [index ...]
  plants each fault (or the faults of the given indexes, from 0) in the package's files in turn,
  runs the test that guards against it, reports whether it caught it, and restores the file
  --check   only report whether each fault's text is still in its file; plant nothing
  --help    print this and exit`;

/** [what, file (relative to the package), text, replacement, test file, test name filter] */
export type PlantedFault = readonly [string, string, string, string, string, string];

/** Runs `faults` in the package at `root` as `argv` asks; returns the exit code (0: all caught). */
export function runPlantedFaults(
  faults: readonly PlantedFault[],
  root: string,
  argv: readonly string[],
): number {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  const wrong = argv.filter((arg) => arg !== "--check" && !/^\d+$/.test(arg));
  if (wrong.length > 0) {
    console.error(`planted-faults: not an option or a fault's index: ${wrong.join(" ")}\n${USAGE}`);
    return 2;
  }
  const checkOnly = argv.includes("--check");
  const only = argv.filter((arg) => arg !== "--check").map(Number);
  const missing = only.filter((index) => index >= faults.length);
  if (missing.length > 0) {
    console.error(`planted-faults: no fault ${missing.join(", ")} (there are ${faults.length})`);
    return 2;
  }
  let caught = 0;
  let missed = 0;
  let errors = 0;
  for (const [index, [what, file, text, replacement, test, name]] of faults.entries()) {
    if (only.length > 0 && !only.includes(index)) continue;
    const path = join(root, file);
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
      const result = spawnSync(
        "pnpm",
        ["exec", "vitest", "run", test, ...(name ? ["-t", name] : [])],
        { cwd: root, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
      );
      const ran = /Tests\s+\d+ (passed|failed)/.test(result.stdout);
      const failed = result.status !== 0 && /Tests\s+.*\d+ failed/.test(result.stdout);
      const by = `${test}${name ? ` (${name})` : ""}`;
      if (!ran) {
        console.log(`[${index}] ${what}: ERROR, no test of ${test} matches "${name}"`);
        errors++;
      } else if (failed) {
        caught++;
        console.log(`[${index}] ${what}: caught by ${by}`);
      } else {
        missed++;
        console.log(`[${index}] ${what}: NOT caught by ${by}`);
      }
    } finally {
      writeFileSync(path, original);
    }
  }
  console.log(
    checkOnly ? `${errors} errors` : `${caught} caught, ${missed} not caught, ${errors} errors`,
  );
  return missed === 0 && errors === 0 ? 0 : 1;
}
