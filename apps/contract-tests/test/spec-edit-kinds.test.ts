// The fast, in-suite half of `pnpm drill:spec-edits`: each kind of everyday edit it makes still
// applies to today's openapi.yaml and leaves a spec that lints and bundles clean with the
// project's rules (so the drill's full runs test the suites, not a broken edit). The full
// `pnpm test` on each edited copy is the on-demand command.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { readSpec, specOperations } from "@animal-store/openapi";
import { afterAll, describe, expect, it } from "vitest";
import { bundledContractPath } from "../src/contract-paths.js";
import { runRedocly } from "../src/redocly-cli.js";
import { EDIT_KINDS } from "../src/spec-edit-kinds.js";

const specDir = join(dirname(bundledContractPath()), "..");
const source = readFileSync(join(specDir, "openapi.yaml"), "utf8");
const scratch = mkdtempSync(join(tmpdir(), "spec-edit-kinds-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the drill's spec edits", () => {
  it.concurrent.each(EDIT_KINDS.map((kind) => [kind.name, kind] as const))(
    "%s: applies to openapi.yaml, lints and bundles clean",
    async (name, kind) => {
      const edited = kind.edit(source);
      expect(edited).not.toBe(source);
      const yaml = join(scratch, `${name}.yaml`);
      writeFileSync(yaml, edited);
      const config = join(specDir, "redocly.yaml");
      const lint = await runRedocly(["lint", yaml, "--config", config]);
      expect(lint.exitCode, lint.output).toBe(0);
      const bundle = join(scratch, `${name}.json`);
      const bundled = await runRedocly(["bundle", yaml, "--config", config, "-o", bundle]);
      expect(bundled.exitCode, bundled.output).toBe(0);
      expect(specOperations(readSpec(bundle).spec).length).toBeGreaterThan(0);
    },
  );
});
