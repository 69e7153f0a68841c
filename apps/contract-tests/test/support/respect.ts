/** Runs `redocly respect` on the project's Arazzo workflows against a chosen server. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { arazzoDir } from "../../src/contract-paths.js";
import { type CliRun, runRedocly } from "../../src/redocly-cli.js";

/** The source description every workflow file names (`sourceDescriptions[0].name`). */
export const SOURCE_NAME = "animalStore";

/** Path of a workflow file in `openapi/arazzo/`. */
export function workflowFile(name: string): string {
  return join(arazzoDir(), name);
}

/**
 * `redocly respect <file> --server animalStore=<baseUrl> --input <json> [--workflow ...]`.
 * `baseUrl` includes `/v1`. Inputs go as JSON so keys with `=` or `,` survive.
 */
export function runRespect(
  file: string,
  baseUrl: string,
  inputs: Record<string, string | number> = {},
  workflows: string[] = [],
): Promise<CliRun> {
  const args = ["respect", file, "--server", JSON.stringify({ [SOURCE_NAME]: baseUrl })];
  if (Object.keys(inputs).length > 0) args.push("--input", JSON.stringify(inputs));
  if (workflows.length > 0) args.push("--workflow", ...workflows);
  args.push("--max-fetch-timeout", "15000", "--execution-timeout", "90000");
  return runRedocly(args, 120_000);
}

/**
 * Copies a workflow file into `dir` with one textual edit (a planted wrong expectation), pointing
 * its source description at the real contract; returns the copy's path.
 */
export function plantedWorkflow(name: string, dir: string, from: string, to: string): string {
  const source = readFileSync(workflowFile(name), "utf8");
  if (!source.includes(from)) throw new Error(`${name} does not contain ${JSON.stringify(from)}`);
  const contract = join(arazzoDir(), "..", "openapi.yaml");
  const planted = source.replace(from, to).replace("url: ../openapi.yaml", `url: ${contract}`);
  const path = join(dir, `planted-${name}`);
  writeFileSync(path, planted);
  return path;
}
