/**
 * Toolchain speed: each step as its CLI runs it (median of a few runs), generation in-process as a
 * watcher keeps it, and the whole `pnpm build` cold (turbo --force) and fully cached.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runTimed } from "./processes.js";
import { median } from "./stats.js";

/** One toolchain figure in ms; `error` when the step failed (the figure is then missing). */
export interface ToolchainFigure {
  id: string;
  label: string;
  ms: number;
  runs: number[];
  error?: string;
}

/** Options of a toolchain run. */
export interface ToolchainOptions {
  root: string;
  scratchDir: string;
  repeats: number;
  log(line: string): void;
}

const QUIET_ENV = {
  TURBO_TELEMETRY_DISABLED: "1",
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  NO_COLOR: "1",
};

async function timeCommand(
  id: string,
  label: string,
  command: string,
  args: string[],
  cwd: string,
  repeats: number,
): Promise<ToolchainFigure> {
  const runs: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const run = await runTimed(command, args, { cwd, env: { ...process.env, ...QUIET_ENV } });
    if (run.code !== 0) {
      const tail = `${run.stdout}${run.stderr}`.trim().split("\n").slice(-5).join("\n");
      return { id, label, ms: Number.NaN, runs, error: `exit ${run.code}: ${tail}` };
    }
    runs.push(run.ms);
  }
  return { id, label, ms: median(runs), runs };
}

/** In-process generation with openapi-typescript's API: first call (with load) and warm calls. */
async function timeInProcessGenerate(root: string, repeats: number): Promise<ToolchainFigure[]> {
  const script = join(root, "packages/api-types/scripts/render-types.mjs");
  const spec = createRequire(import.meta.url).resolve("@animal-store/openapi/openapi.json");
  const started = performance.now();
  const { renderTypes } = (await import(pathToFileURL(script).href)) as {
    renderTypes(specPath: string): Promise<string>;
  };
  await renderTypes(spec);
  const first = performance.now() - started;
  const warm: number[] = [];
  for (let i = 0; i < Math.max(repeats, 5); i++) {
    const t = performance.now();
    await renderTypes(spec);
    warm.push(performance.now() - t);
  }
  return [
    {
      id: "generate-api-first",
      label: "generate, in-process API, first run (loads TypeScript)",
      ms: first,
      runs: [first],
    },
    {
      id: "generate-api-warm",
      label: "generate, in-process API, already loaded",
      ms: median(warm),
      runs: warm,
    },
  ];
}

/** Runs every toolchain figure in sequence (each one alone on the machine). */
export async function runToolchainBench(options: ToolchainOptions): Promise<ToolchainFigure[]> {
  const { root, scratchDir, repeats, log } = options;
  const bin = (pkgDir: string, name: string) => join(root, pkgDir, "node_modules/.bin", name);
  const openapiDir = join(root, "openapi");
  const spec = createRequire(import.meta.url).resolve("@animal-store/openapi/openapi.json");
  const turbo = bin(".", "turbo");
  const figures: ToolchainFigure[] = [];
  const add = (figure: ToolchainFigure) => {
    figures.push(figure);
    log(
      `  ${figure.label}: ${figure.error ? `FAILED ${figure.error}` : `${figure.ms.toFixed(0)} ms`}`,
    );
  };
  const redocly = bin("openapi", "redocly");
  add(
    await timeCommand(
      "lint-spec",
      "lint the spec (redocly lint)",
      redocly,
      ["lint", "openapi.yaml", "--format=stylish"],
      openapiDir,
      repeats,
    ),
  );
  add(
    await timeCommand(
      "lint-code",
      "lint the code (biome check .)",
      bin(".", "biome"),
      ["check", "."],
      root,
      repeats,
    ),
  );
  add(
    await timeCommand(
      "bundle",
      "bundle the spec (redocly bundle → JSON)",
      redocly,
      ["bundle", "openapi.yaml", "-o", join(scratchDir, "openapi.json")],
      openapiDir,
      repeats,
    ),
  );
  add(
    await timeCommand(
      "generate-cli",
      "generate types, openapi-typescript CLI",
      bin("packages/api-types", "openapi-typescript"),
      [spec, "-o", join(scratchDir, "openapi.ts")],
      root,
      repeats,
    ),
  );
  for (const figure of await timeInProcessGenerate(root, repeats)) add(figure);
  add(
    await timeCommand(
      "build-cold",
      "pnpm build, cold (turbo --force)",
      turbo,
      ["run", "build", "--force", "--output-logs=errors-only"],
      root,
      1,
    ),
  );
  add(
    await timeCommand(
      "build-cached",
      "pnpm build, fully cached",
      turbo,
      ["run", "build", "--output-logs=errors-only"],
      root,
      repeats,
    ),
  );
  return figures;
}
