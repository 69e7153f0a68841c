/**
 * Toolchain speed: each step as its CLI runs it (median of a few runs), generation in-process as a
 * watcher keeps it, and the whole `pnpm build` cold (turbo --force) and fully cached.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundledSpecPath } from "@animal-store/openapi";
import { runTimed } from "./processes.js";
import { median } from "./stats.js";

/** One toolchain figure in ms; `error` when the step failed (the figure is then missing). */
export interface ToolchainFigure {
  id: string;
  label: string;
  ms: number;
  runs: number[];
  /** What the step reported about itself (a linter's findings, turbo's cache hits). */
  detail?: string;
  error?: string;
}

/** Options of a toolchain run. */
export interface ToolchainOptions {
  root: string;
  scratchDir: string;
  repeats: number;
  log(line: string): void;
}

/** A command to time. A linter exiting 1 has done all its work, so its time still counts. */
interface Step {
  id: string;
  label: string;
  command: string;
  args: string[];
  cwd: string;
  repeats: number;
  /** Untimed runs first (a cached build must be primed after files changed). */
  warmup?: number;
  findingsExitOk?: boolean;
  detail?: (output: string) => string | undefined;
}

const QUIET_ENV = {
  TURBO_TELEMETRY_DISABLED: "1",
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  NO_COLOR: "1",
};

/** turbo's own summary, e.g. "9/9 cached": a "fully cached" build that was not is visible. */
export function turboCacheDetail(output: string): string | undefined {
  const match = /Cached:\s+(\d+) cached, (\d+) total/.exec(output);
  return match ? `${match[1]}/${match[2]} tasks from cache` : undefined;
}

/** Biome's and Redocly's problem counts, when the lint found any. */
function lintDetail(output: string): string | undefined {
  const found =
    /Found (\d+) errors?|(\d+) errors? and (\d+) warnings?|You have (\d+) errors?/i.exec(output);
  return found ? `found problems: ${found[0]}` : undefined;
}

async function timeStep(step: Step): Promise<ToolchainFigure> {
  const { id, label } = step;
  const runs: number[] = [];
  let detail: string | undefined;
  for (let i = -(step.warmup ?? 0); i < step.repeats; i++) {
    const run = await runTimed(step.command, step.args, {
      cwd: step.cwd,
      env: { ...process.env, ...QUIET_ENV },
    });
    const output = `${run.stdout}${run.stderr}`;
    if (run.code !== 0 && !(step.findingsExitOk && run.code === 1)) {
      const tail = output.trim().split("\n").slice(-5).join("\n");
      return { id, label, ms: Number.NaN, runs, error: `exit ${run.code}: ${tail}` };
    }
    if (i < 0) continue;
    runs.push(run.ms);
    detail = step.detail?.(output);
  }
  return { id, label, ms: median(runs), runs, ...(detail ? { detail } : {}) };
}

/** In-process generation with openapi-typescript's API: first call (with load) and warm calls. */
async function timeInProcessGenerate(root: string, repeats: number): Promise<ToolchainFigure[]> {
  const script = join(root, "packages/api-types/scripts/render-types.mjs");
  const spec = bundledSpecPath;
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
  const spec = bundledSpecPath;
  const redocly = bin("openapi", "redocly");
  const turbo = bin(".", "turbo");
  const steps: Step[] = [
    {
      id: "lint-spec",
      label: "lint the spec (redocly lint)",
      command: redocly,
      args: ["lint", "openapi.yaml", "--format=stylish"],
      cwd: openapiDir,
      repeats,
      findingsExitOk: true,
      detail: lintDetail,
    },
    {
      id: "lint-code",
      label: "lint the code (biome check .)",
      command: bin(".", "biome"),
      args: ["check", "."],
      cwd: root,
      repeats,
      findingsExitOk: true,
      detail: lintDetail,
    },
    {
      id: "bundle",
      label: "bundle the spec (redocly bundle → JSON)",
      command: redocly,
      args: ["bundle", "openapi.yaml", "-o", join(scratchDir, "openapi.json")],
      cwd: openapiDir,
      repeats,
    },
    {
      id: "generate-cli",
      label: "generate types, openapi-typescript CLI",
      command: bin("packages/api-types", "openapi-typescript"),
      args: [spec, "-o", join(scratchDir, "openapi.ts")],
      cwd: root,
      repeats,
    },
    {
      id: "build-cold",
      label: "pnpm build, cold (turbo --force)",
      command: turbo,
      args: ["run", "build", "--force", "--output-logs=errors-only"],
      cwd: root,
      repeats: 1,
      detail: turboCacheDetail,
    },
    {
      id: "build-cached",
      label: "pnpm build, fully cached",
      command: turbo,
      args: ["run", "build", "--output-logs=errors-only"],
      cwd: root,
      repeats,
      warmup: 1,
      detail: turboCacheDetail,
    },
  ];
  const figures: ToolchainFigure[] = [];
  const add = (figure: ToolchainFigure) => {
    figures.push(figure);
    const result = figure.error ? `FAILED ${figure.error}` : `${figure.ms.toFixed(0)} ms`;
    log(`  ${figure.label}: ${result}${figure.detail ? ` (${figure.detail})` : ""}`);
  };
  for (const step of steps.slice(0, 4)) add(await timeStep(step));
  for (const figure of await timeInProcessGenerate(root, repeats)) add(figure);
  for (const step of steps.slice(4)) add(await timeStep(step));
  return figures;
}
