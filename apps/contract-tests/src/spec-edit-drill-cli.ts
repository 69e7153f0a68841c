/**
 * `pnpm drill:spec-edits [kind ...] [--keep]` (`--list` prints the kinds as JSON): for each kind of everyday spec edit
 * (spec-edit-kinds.ts), a scratch copy of the repository as committed (`git archive HEAD`, a
 * clean clone), `pnpm install --offline`, the edit of openapi/openapi.yaml, the commands the edit
 * needs, the product code it needs (a new operation's handler body), `pnpm generate`, then the
 * whole `pnpm test --continue` with the environment's services.
 * A kind passes when every task passes, or, for an edit that departs from the interface document,
 * when the only failing test file is openapi/test/interface-document.test.ts (in the only failing
 * task, the openapi package's tests). Slow (the full
 * suite per kind), so not part of `pnpm test`: GitHub CI runs one job per kind (`--list`); the
 * in-suite check is apps/contract-tests/test/spec-edit-drill.test.ts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failures } from "./drill-log.js";
import { EDIT_KINDS, type EditKind } from "./spec-edit-kinds.js";

const repo = new URL("../../..", import.meta.url).pathname;
const args = process.argv.slice(2);
const keep = args.includes("--keep");
// The kinds as JSON, for CI to run one job per kind (.github/workflows/ci.yml).
if (args.includes("--list")) {
  console.log(JSON.stringify(EDIT_KINDS.map((kind) => kind.name)));
  process.exit(0);
}
const wanted = args.filter((arg) => !arg.startsWith("--"));
const unknown = wanted.filter((name) => !EDIT_KINDS.some((kind) => kind.name === name));
if (unknown.length > 0) {
  console.error(
    `unknown edit kind ${unknown.join(", ")}; kinds: ${EDIT_KINDS.map((k) => k.name).join(", ")}`,
  );
  process.exit(2);
}
const kinds = wanted.length === 0 ? EDIT_KINDS : EDIT_KINDS.filter((k) => wanted.includes(k.name));

/** The step running now, if any. */
let current: ChildProcess | undefined;
// SIGINT, SIGTERM or SIGHUP stops the step running (its whole process group) and exits 0: nothing
// the drill started is left running.
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the drill`);
    const step = current;
    if (step?.pid === undefined || step.exitCode !== null) process.exit(0);
    step.once("close", () => process.exit(0));
    try {
      process.kill(-step.pid, "SIGTERM");
    } catch {
      process.exit(0);
    }
    // What ignores SIGTERM is killed.
    setTimeout(() => {
      try {
        process.kill(-(step.pid as number), "SIGKILL");
      } catch {}
      process.exit(0);
    }, 5_000).unref();
  });
}

/** Runs `command` in `cwd`, appending its output to `log`; resolves with its exit code. */
function run(command: string[], cwd: string, log: string, shell = false): Promise<number> {
  return new Promise((resolve) => {
    const [file, ...rest] = command as [string, ...string[]];
    const child = spawn(file, rest, {
      cwd,
      shell,
      env: {
        ...process.env,
        TURBO_TELEMETRY_DISABLED: "1",
        FORCE_COLOR: "0",
        NO_COLOR: "1",
        // The in-suite drills edit the committed spec; in an edited copy they skip.
        SPEC_EDIT_DRILL: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
      // A group of its own, so that stopping the drill stops all of the step (pnpm, turbo, tasks).
      detached: true,
    });
    current = child;
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("close", (code) => {
      current = undefined;
      writeFileSync(log, `\n$ ${command.join(" ")}\n${Buffer.concat(chunks).toString()}`, {
        flag: "a",
      });
      resolve(code ?? 1);
    });
  });
}

async function drill(kind: EditKind): Promise<boolean> {
  const scratch = mkdtempSync(join(tmpdir(), `drill-${kind.name}-`));
  const log = join(scratch, "drill.log");
  const started = Date.now();
  console.log(`\n== ${kind.name}: ${kind.summary}\n   scratch ${scratch}`);
  const step = async (command: string[], shell = false) => {
    const code = await run(command, scratch, log, shell);
    if (code !== 0) console.log(`   ${command.join(" ")} exited ${code} (see ${log})`);
    return code;
  };
  let ok =
    (await step([`git -C ${repo} archive HEAD | tar -x -C ${scratch}`], true)) === 0 &&
    (await step(["pnpm", "install", "--frozen-lockfile", "--offline"])) === 0;
  if (ok) {
    const specFile = join(scratch, "openapi/openapi.yaml");
    writeFileSync(specFile, kind.edit(readFileSync(specFile, "utf8")));
    for (const command of kind.commands ?? []) ok = ok && (await step(command)) === 0;
    for (const [path, text] of Object.entries(kind.code ?? {})) {
      writeFileSync(join(scratch, path), text);
      writeFileSync(log, `\n(wrote ${path}, product code the edit needs)\n`, { flag: "a" });
    }
    if (kind.code)
      ok =
        ok &&
        (await step(["pnpm", "exec", "biome", "format", "--write", ...Object.keys(kind.code)])) ===
          0;
    ok = ok && (await step(["pnpm", "generate"])) === 0;
  }
  const tested = ok ? await step(["pnpm", "test", "--continue"]) : 1;
  const { files, tasks } = failures(readFileSync(log, "utf8"));
  // The interface document's test file is the only one failing, and its task the only task (a
  // failing lint or typecheck names no test file).
  const onlyDocument =
    kind.departsFromDocument &&
    files.length > 0 &&
    files.every((file) => file.endsWith("interface-document.test.ts")) &&
    tasks.every((task) => task === "@animal-store/openapi#test");
  const passed = ok && (tested === 0 || onlyDocument);
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(
    `   ${passed ? "PASS" : "FAIL"} in ${minutes} min${tested === 0 ? "" : `: failing ${files.join(", ") || "(no test file)"}; tasks ${tasks.join(", ") || "?"}`}${onlyDocument ? " (the interface document's test only, as it should)" : ""}`,
  );
  if (passed && !keep) rmSync(scratch, { recursive: true, force: true });
  return passed;
}

let failed = 0;
for (const kind of kinds) if (!(await drill(kind))) failed++;
console.log(`\n${kinds.length - failed} of ${kinds.length} edit kinds passed`);
process.exit(failed === 0 ? 0 : 1);
