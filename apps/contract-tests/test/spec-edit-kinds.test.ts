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
import { failures } from "../src/drill-log.js";
import { runRedocly } from "../src/redocly-cli.js";
import { EDIT_KINDS } from "../src/spec-edit-kinds.js";

const specDir = join(dirname(bundledContractPath()), "..");
const source = readFileSync(join(specDir, "openapi.yaml"), "utf8");
const scratch = mkdtempSync(join(tmpdir(), "spec-edit-kinds-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Under `pnpm drill:spec-edits` the spec already carries one of these edits.
describe.skipIf(process.env.SPEC_EDIT_DRILL !== undefined)("the drill's spec edits", () => {
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

describe("the drill's reading of a pnpm test log", () => {
  it("names the failing test files and turbo tasks, colours or not", () => {
    const log = [
      "@animal-store/openapi:test: \u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m test/interface-document.test.ts > pins",
      "@animal-store/server:test:  FAIL  test/paging.test.ts > following next",
      " Failed:    @animal-store/openapi#test, @animal-store/dev-loop#test, @animal-store/contract-tests#test, @animal-store/server#test",
    ].join("\n");
    expect(failures(log)).toEqual({
      files: ["test/interface-document.test.ts", "test/paging.test.ts"],
      tasks: [
        "@animal-store/openapi#test",
        "@animal-store/dev-loop#test",
        "@animal-store/contract-tests#test",
        "@animal-store/server#test",
      ],
    });
  });
});
