// @ts-check
// What the loop runs, as the application says: a config module (the repository's
// `dev-loop.config.mjs`, passed with `--config`, else the nearest one up from the working
// directory). The loop itself names no application and imports none.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** The file name looked for when no `--config` is given. */
export const CONFIG_FILE = "dev-loop.config.mjs";

/**
 * @typedef {object} ServiceEntry a service as the config describes it
 * @property {string} name
 * @property {string} main its entry point
 * @property {string} cwd
 * @property {{ host: string, port: number }} address where its own configuration makes it listen
 * @property {string[]} [preload] modules its standby imports ahead of "go"
 * @property {string[]} [code] build directories whose change restarts it
 * @property {boolean} [handoff] restarts hand its listening socket over (node:cluster)
 */

/**
 * @typedef {object} DevLoopConfig
 * @property {import("./spec-pipeline.mjs").PipelineLayout & { specDir: string }} spec
 * @property {(env: Record<string, string | undefined>) => Promise<ServiceEntry[]> | ServiceEntry[]} services
 * @property {{ dir: string, script: string } | null} docs
 */

/** The config file: `given` (relative to `cwd`), else the nearest CONFIG_FILE from `cwd` up. */
export function findConfig(/** @type {string | undefined} */ given, cwd = process.cwd()) {
  if (given) return resolve(cwd, given);
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) {
      throw new Error(`no ${CONFIG_FILE} in ${cwd} or above it: pass --config <file>`);
    }
  }
}

/** Imports the config at `path` and checks it has what the loop reads. */
export async function loadConfig(/** @type {string} */ path) {
  if (!existsSync(path)) throw new Error(`the dev loop's config ${path} does not exist`);
  const module = await import(pathToFileURL(path).href);
  const missing = ["spec", "services", "docs"].filter((name) => !(name in module));
  if (missing.length > 0) throw new Error(`${path} exports no ${missing.join(", ")}`);
  if (typeof module.services !== "function") {
    throw new Error(`${path}: services must be a function of the environment`);
  }
  return /** @type {DevLoopConfig} */ (module);
}
