#!/usr/bin/env node
// @ts-check
// The root scripts' one entry (`exec node scripts/run.mjs <script> [args]`, see commands.mjs):
//   1. `--help` / `-h` prints the script's usage on stdout and exits 0 before anything else runs;
//   2. the arguments are checked before anything is built: an unknown option or a bad argument is
//      refused with one line on stderr and exit 2;
//   3. turbo builds what the script needs (its telemetry off unless the caller says otherwise),
//      with a line saying what is being built and one when it is done;
//   4. the script's program runs in this same process (what `exec node <program>` did): pnpm's
//      signals reach the code that acts on them, so SIGINT or SIGTERM stops everything it started.
// A signal during a build or a child tool is passed to that child; once it has stopped the script
// exits 0, as asked. NO_BUILD=1 skips step 3 (for callers that have just built, such as tests).
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { COMMANDS } from "./commands.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const [name = "", ...given] = process.argv.slice(2);
const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
if (!command) {
  process.stderr.write(
    `run.mjs: unknown script "${name}"; scripts: ${Object.keys(COMMANDS).join(", ")}\n`,
  );
  process.exit(2);
}
// `pnpm docs` is pnpm's own command: the script is reached as `pnpm run docs`.
const label = `pnpm ${name === "docs" ? "run docs" : name}`;
// pnpm passes on a `--` typed right after the script's name. For a script that is one
// `turbo run`, what follows it goes to the tasks, as `turbo run <task> -- <args>` did before this
// entry (`pnpm bench -- --quick`); for any other script it only separates pnpm's words from ours.
const tasksAfterDash = given[0] === "--" && command.passTurboFlags === true;
const args = given[0] === "--" && !tasksAfterDash ? given.slice(1) : given;
const end = args.indexOf("--");
const own = end === -1 ? args : args.slice(0, end);
const rest = end === -1 ? [] : args.slice(end + 1);

if (own.includes("--help") || own.includes("-h")) {
  let usage = command.usage;
  if (name === "mock") usage = (await import("../apps/mock/src/options.mjs")).USAGE;
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}

/** Refuses the command line with one line on stderr and exit 2. */
function refuse(/** @type {string} */ message) {
  process.stderr.write(`${label}: ${message} (${label} --help for usage)\n`);
  process.exit(2);
}

let positionals = /** @type {string[]} */ ([]);
let turboFlags = /** @type {string[]} */ ([]);
if (name !== "mock") {
  try {
    const parsed = parseArgs({
      args: own,
      options: command.options ?? {},
      allowPositionals: command.positionals === true,
      strict: true,
    });
    positionals = parsed.positionals;
  } catch (error) {
    // Node's message goes on to explain `--`; its first sentence says what is wrong.
    refuse(
      String(error instanceof Error ? error.message : error).split(". ")[0] ?? "bad arguments",
    );
  }
}
if (command.passTurboFlags) turboFlags = own;
const problem = await command.parse?.(name === "mock" ? own : positionals);
if (problem) refuse(problem);
if (rest.length > 0 && !command.turbo && !command.program && !command.tool) {
  refuse(`takes nothing after --`);
}

// The project turns turbo's telemetry off itself (its notice would be the first thing a fresh
// clone prints); a caller's own setting wins.
process.env.TURBO_TELEMETRY_DISABLED ??= "1";

const bin = (/** @type {string} */ tool) =>
  tool === "pnpm" ? "pnpm" : resolve(root, "node_modules/.bin", tool);

/**
 * Runs a child to its end. A SIGINT, SIGTERM or SIGHUP meanwhile is passed to it; `stopped` then
 * says the run was asked to stop.
 * @param {string} file
 * @param {string[]} argv
 * @param {{ capture?: boolean, cwd?: string }} [options]
 * @returns {Promise<{ code: number, stopped: boolean, output: string }>}
 */
function run(file, argv, options = {}) {
  return new Promise((done) => {
    const child = spawn(file, argv, {
      cwd: options.cwd ?? root,
      stdio: options.capture ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    const chunks = /** @type {Buffer[]} */ ([]);
    child.stdout?.on("data", (chunk) => chunks.push(chunk));
    child.stderr?.on("data", (chunk) => chunks.push(chunk));
    let stopped = false;
    const forward = (/** @type {NodeJS.Signals} */ signal) => {
      stopped = true;
      child.kill(signal);
    };
    const signals = /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"]);
    for (const signal of signals) process.on(signal, forward);
    const finish = (/** @type {number} */ code) => {
      for (const signal of signals) process.off(signal, forward);
      done({ code, stopped, output: Buffer.concat(chunks).toString() });
    };
    child.on("error", (error) => {
      chunks.push(Buffer.from(`${file}: ${error.message}\n`));
      finish(1);
    });
    child.on("close", (code) => finish(code ?? 1));
  });
}

/** Exits with the child's code, or 0 when the child stopped because this script was asked to. */
function exitAfter(/** @type {{ code: number, stopped: boolean }} */ result) {
  process.exit(result.stopped ? 0 : result.code);
}

if (command.turbo) {
  const tail = rest.length > 0 ? ["--", ...rest] : [];
  exitAfter(await run(bin("turbo"), [...command.turbo, ...turboFlags, ...tail]));
}
if (command.tool) {
  const tail = rest.length > 0 ? ["--", ...rest] : [];
  exitAfter(await run(bin(command.tool.bin), [...command.tool.args, ...own, ...tail]));
}
if (command.steps) {
  for (const [tool = "", ...argv] of command.steps) {
    const result = await run(bin(tool), argv);
    if (result.stopped || result.code !== 0) exitAfter(result);
  }
  process.exit(0);
}

if (command.build && process.env.NO_BUILD !== "1") {
  const { what, turbo } = command.build;
  const started = performance.now();
  process.stderr.write(`${label}: building ${what} (turbo; quick when nothing changed)\n`);
  const result = await run(bin("turbo"), [...turbo, "--output-logs=errors-only"], {
    capture: true,
  });
  if (result.stopped) process.exit(0);
  if (result.code !== 0) {
    process.stderr.write(`${result.output}${label}: the build failed (see above)\n`);
    process.exit(result.code);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(`${label}: built in ${seconds} s\n`);
}

if (command.program) {
  // As `cd <dir> && exec node <file> <args>`: same directory, same argv, same process.
  const cwd = resolve(root, command.program.cwd);
  const file = resolve(cwd, command.program.file);
  process.chdir(cwd);
  process.argv = [process.argv[0] ?? process.execPath, file, ...args];
  await import(pathToFileURL(file).href);
}
