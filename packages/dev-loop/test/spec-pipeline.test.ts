// The in-process pipeline must agree with the CLI tools the build uses: the same lint verdicts,
// byte-identical bundles, and the generated files that are committed.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createSpecPipeline } from "../src/spec-pipeline.mjs";
import { type Json, layout, scratchSpec } from "./scratch.js";

const run = promisify(execFile);
const redocly = join(layout.specDir, "node_modules/.bin/redocly");

/** The error rule ids `redocly lint` (the CLI the build runs) reports for the spec in `dir`. */
async function cliLintRules(specDir: string, configPath: string): Promise<string[]> {
  let stdout: string;
  try {
    const args = ["lint", "openapi.yaml", "--config", configPath, "--format=json"];
    ({ stdout } = await run(redocly, args, {
      cwd: specDir,
      env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    }));
  } catch (error) {
    stdout = (error as { stdout: string }).stdout;
  }
  const problems = JSON.parse(stdout).problems as { ruleId: string; severity: string }[];
  return [...new Set(problems.filter((p) => p.severity === "error").map((p) => p.ruleId))].sort();
}

// Each case runs the real lint, bundle and generators (and the CLI, for the lint cases): seconds of
// work, so vitest's 5 s default, meant as a hang guard, trips on a busy host.
describe("createSpecPipeline on the real contract", { timeout: 60_000 }, () => {
  const scratch = scratchSpec();
  afterAll(() => scratch.remove());

  it("bundles byte for byte like `redocly bundle` and generates the committed files", async () => {
    const pipeline = await createSpecPipeline(scratch);
    const result = await pipeline.run();
    expect(result).toMatchObject({ ok: true, bundleChanged: true });
    for (const file of ["openapi.json", "openapi.yaml"]) {
      const ours = readFileSync(join(scratch.distDir, file), "utf8");
      expect(ours, file).toBe(readFileSync(join(layout.distDir, file), "utf8"));
    }
    for (const [i, generator] of scratch.generators.entries()) {
      const committed = readFileSync(layout.generators[i]?.target ?? "", "utf8");
      expect(readFileSync(generator.target, "utf8"), generator.name).toBe(committed);
    }
    const again = await pipeline.run();
    expect(again).toMatchObject({ ok: true, bundleChanged: false, regenerated: [] });
  });
});

describe("lint verdicts", { timeout: 60_000 }, () => {
  const scratch = scratchSpec();
  afterAll(() => scratch.remove());
  const breakages: [string, (spec: Json) => void][] = [
    ["listPets without 429", (s) => delete s.paths["/pets"].get.responses["429"]],
    [
      "an example that breaks its schema",
      (s) => {
        s.paths["/pets"].get.responses["200"].content["application/json"].examples.empty.value = [
          { id: "x" },
        ];
      },
    ],
    [
      "an unresolved $ref",
      (s) => {
        s.paths["/pets"].post.responses["400"] = { $ref: "#/components/responses/Nope" };
      },
    ],
    ["getPet without x-sunset", (s) => delete s.paths["/pets/{petId}"].get["x-sunset"]],
  ];

  it.each(breakages)(
    "%s: the same rules fail in-process as in the CLI, and dist/ is kept",
    async (_why, edit) => {
      const pipeline = await createSpecPipeline(scratch);
      const good = await pipeline.run();
      expect(good.ok).toBe(true);
      const before = readFileSync(join(scratch.distDir, "openapi.json"), "utf8");
      scratch.edit(edit);
      const result = await pipeline.run();
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.stage).toBe("lint");
      for (const line of result.problems)
        expect(line).toMatch(/openapi\.yaml:\d+:\d+ {2}error {2}\S+ {2}\S/);
      const rules = result.problems.map((line) => /error {2}(\S+)/.exec(line)?.[1]);
      expect([...new Set(rules)].sort()).toEqual(
        await cliLintRules(scratch.specDir, scratch.configPath),
      );
      expect(readFileSync(join(scratch.distDir, "openapi.json"), "utf8")).toBe(before);
      scratch.reset();
    },
    30_000,
  );
});
