/**
 * Linting edited copies of the real spec with the project's redocly.yaml (its plugin path is
 * relative to it, so the copies are linted with the real file), for the lint-rule suites.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse, stringify } from "yaml";
import type { Json } from "./spec.js";

const run = promisify(execFile);
const here = new URL("..", import.meta.url).pathname;
const redocly = join(here, "node_modules/.bin/redocly");
const config = join(here, "redocly.yaml");

/** The hand-written spec, as text. */
export const original = readFileSync(join(here, "openapi.yaml"), "utf8");

/** A scratch directory for one suite's copies; `remove()` it after the suite. */
export function lintScratch() {
  const scratch = mkdtempSync(join(tmpdir(), "animal-store-lint-"));
  return {
    /** Lints `source` as openapi.yaml; returns whether lint passed and its output. */
    async lint(name: string, source: string): Promise<{ ok: boolean; output: string }> {
      const dir = mkdtempSync(join(scratch, `${name.replace(/\W+/g, "-").slice(0, 60)}-`));
      writeFileSync(join(dir, "openapi.yaml"), source);
      try {
        const args = ["lint", "openapi.yaml", "--config", config, "--format=stylish"];
        const { stdout, stderr } = await run(redocly, args, {
          cwd: dir,
          env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
        });
        return { ok: true, output: stdout + stderr };
      } catch (error) {
        const failed = error as { stdout: string; stderr: string };
        return { ok: false, output: failed.stdout + failed.stderr };
      }
    },
    remove: () => rmSync(scratch, { recursive: true, force: true }),
  };
}

/** The real spec with one edit applied to its parsed form. */
export function mutated(edit: (spec: Json) => void): string {
  const spec = parse(original);
  edit(spec);
  return stringify(spec, { lineWidth: 0 });
}

/** The lines of lint's output that report `rule`. */
export function reportsOf(output: string, rule: string): string[] {
  return output.split("\n").filter((line) => line.includes(` ${rule} `));
}
