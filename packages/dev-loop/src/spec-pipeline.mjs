// @ts-check
// Lint → bundle → generate, with the whole toolchain loaded once in this process: Redocly's
// openapi-core for lint and bundle (the CLI spends ~0.4 s starting per command, in-process it is
// tens of milliseconds), and the repo's own generators imported as functions.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { bundle, getLineColLocation, lint, loadConfig, stringifyYaml } from "@redocly/openapi-core";

/**
 * @typedef {{ name: string, module: string, exportName: string, target: string }} Generator
 * @typedef {{ specPath: string, configPath: string, distDir: string, generators: Generator[], root?: string }} PipelineLayout
 *   `root`: lint problems name files relative to it (the repository root; default the cwd)
 * @typedef {{ lint: number, bundle: number, generate: number }} Timings
 * @typedef {{ ok: false, stage: "lint" | "bundle" | "generate", problems: string[], timings: Timings }
 *   | { ok: true, bundleChanged: boolean, regenerated: string[], warnings: string[], timings: Timings }} PipelineResult
 */

/** Writes `text` to `path` unless it already holds it; atomic, so readers never see half a file. */
async function writeIfChanged(/** @type {string} */ path, /** @type {string} */ text) {
  const current = await readFile(path, "utf8").catch(() => null);
  if (current === text) return false;
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
  return true;
}

/** One problem as `file:line:col  severity  rule  message`. */
export function formatProblem(/** @type {any} */ problem, cwd = process.cwd()) {
  const location = problem.location?.[0];
  let where = "";
  if (location) {
    const { start } = getLineColLocation(location);
    const file = relative(cwd, location.source.absoluteRef);
    where = `${file}:${start.line}:${start.col}  `;
  }
  return `${where}${problem.severity}  ${problem.ruleId}  ${problem.message}`;
}

const since = (/** @type {number} */ start) => Math.round(performance.now() - start);

/** The pipeline for one spec; `run()` after every change. */
export async function createSpecPipeline(/** @type {PipelineLayout} */ layout) {
  let config = await loadConfig({ configPath: layout.configPath });
  const renderers = await Promise.all(
    layout.generators.map(async (generator) => {
      const module = await import(pathToFileURL(generator.module).href);
      const render = module[generator.exportName];
      if (typeof render !== "function") {
        throw new Error(`${generator.module} does not export ${generator.exportName}()`);
      }
      return { ...generator, render: /** @type {(spec: string) => Promise<string>} */ (render) };
    }),
  );
  const jsonPath = join(layout.distDir, "openapi.json");
  const yamlPath = join(layout.distDir, "openapi.yaml");
  /** The bundle the services last started on and answered with (null until they have). */
  /** @type {{ json: string, yaml: string } | null} */
  let lastGood = null;
  const format = (/** @type {any} */ problem) => formatProblem(problem, layout.root);

  return {
    /** Re-reads redocly.yaml (the lint rules changed). */
    async reloadConfig() {
      config = await loadConfig({ configPath: layout.configPath });
    },

    /**
     * Records the bundle now in dist/ as the last good one: call it once every service has
     * started on it and answered (a bundle that lints may still not start a server).
     */
    async commitLastGood() {
      const [json, yaml] = await Promise.all([
        readFile(jsonPath, "utf8").catch(() => null),
        readFile(yamlPath, "utf8").catch(() => null),
      ]);
      if (json !== null && yaml !== null) lastGood = { json, yaml };
    },

    /** Puts the last good bundle back in dist/ (a service would not start on the new one). */
    async restoreLastGood() {
      if (!lastGood) return false;
      await writeIfChanged(jsonPath, lastGood.json);
      await writeIfChanged(yamlPath, lastGood.yaml);
      return true;
    },

    /** Lints, bundles into dist/ and regenerates; nothing is written when lint finds an error. */
    async run() {
      /** @type {Timings} */
      const timings = { lint: 0, bundle: 0, generate: 0 };
      let start = performance.now();
      /** @type {any[]} */
      let problems;
      try {
        problems = await lint({ ref: layout.specPath, config });
      } catch (error) {
        timings.lint = since(start);
        const message = error instanceof Error ? error.message : String(error);
        return /** @type {PipelineResult} */ ({
          ok: false,
          stage: "lint",
          problems: [message],
          timings,
        });
      }
      timings.lint = since(start);
      const errors = problems.filter((p) => p.severity === "error");
      const warnings = problems.filter((p) => p.severity !== "error").map(format);
      if (errors.length > 0) {
        return /** @type {PipelineResult} */ ({
          ok: false,
          stage: "lint",
          problems: errors.map(format),
          timings,
        });
      }

      start = performance.now();
      const result = await bundle({ ref: layout.specPath, config });
      const bundleErrors = result.problems.filter((p) => p.severity === "error");
      if (bundleErrors.length > 0) {
        timings.bundle = since(start);
        return /** @type {PipelineResult} */ ({
          ok: false,
          stage: "bundle",
          problems: bundleErrors.map(format),
          timings,
        });
      }
      // The same bytes `redocly bundle` writes, so turbo and the drift gates see no difference.
      const json = JSON.stringify(result.bundle.parsed, null, 2);
      const yaml = stringifyYaml(result.bundle.parsed, { noRefs: true, lineWidth: -1 });
      const jsonChanged = await writeIfChanged(jsonPath, json);
      const yamlChanged = await writeIfChanged(yamlPath, yaml);
      timings.bundle = since(start);

      start = performance.now();
      /** @type {string[]} */
      const regenerated = [];
      for (const generator of renderers) {
        try {
          if (await writeIfChanged(generator.target, await generator.render(jsonPath))) {
            regenerated.push(generator.name);
          }
        } catch (error) {
          timings.generate = since(start);
          const message = error instanceof Error ? error.message : String(error);
          return /** @type {PipelineResult} */ ({
            ok: false,
            stage: "generate",
            problems: [`${generator.name}: ${message}`],
            timings,
          });
        }
      }
      timings.generate = since(start);
      return /** @type {PipelineResult} */ ({
        ok: true,
        bundleChanged: jsonChanged || yamlChanged,
        regenerated,
        warnings,
        timings,
      });
    },
  };
}
