/**
 * Runs the built server (`node dist/main.js`) and keys CLI as child processes, the way
 * `pnpm start` and `pnpm keys` do, for the crash, shutdown and CLI suites.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { issueApiKey, type NewKeyOptions } from "@animal-store/openapi-engine";
import { openSqliteStore } from "../../src/store/sqlite.js";
import { customPlan, policy } from "./contract.js";

const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));

const KEYS_DIST = fileURLToPath(new URL("../../dist-keys/", import.meta.url));

function builtFile(name: string, dist = DIST): string {
  const file = `${dist}${name}`;
  if (!existsSync(file)) {
    const script = dist === KEYS_DIST ? "build:keys" : "build";
    throw new Error(`${file} is missing: run \`pnpm --filter @animal-store/server ${script}\``);
  }
  return file;
}

/** The environment children get: nothing from the developer's shell beyond PATH. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  // No metrics listener unless a suite asks for one: several children run at once.
  return {
    PATH: process.env.PATH ?? "",
    NODE_ENV: "development",
    LOG_LEVEL: "info",
    METRICS_PORT: "0",
    ...env,
  };
}

/** A server child process. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stderr, waiting for it up to `timeoutMs`. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  stdoutLines(): Array<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `node dist/main.js` with PORT=0 and resolves once it logs "listening". `nodeArgs` go
 * before the script (`--import` of a probe); `ipc` opens a message channel to the child.
 */
export function spawnServer(
  env: Record<string, string>,
  options: { nodeArgs?: string[]; ipc?: boolean } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), builtFile("main.js")], {
    env: childEnv({ PORT: "0", ...env }),
    stdio: options.ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  const lines: Array<Record<string, unknown>> = [];
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    // A child that never says "listening" (a log level that hides the line, a hang) is stopped,
    // not left running behind the suite.
    const giveUp = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not log "listening" within 30 s: ${stderr}`));
    }, 30_000);
    child.stdout?.on("data", (chunk) => {
      stdout += String(chunk);
      let newline = stdout.indexOf("\n");
      while (newline !== -1) {
        const line = JSON.parse(stdout.slice(0, newline)) as Record<string, unknown>;
        stdout = stdout.slice(newline + 1);
        lines.push(line);
        if (line.msg === "listening") {
          clearTimeout(giveUp);
          resolve({
            child,
            url: String(line.url),
            stderr: () => stderr,
            async waitForStderr(pattern, timeoutMs = 5000) {
              const deadline = Date.now() + timeoutMs;
              for (;;) {
                const match = pattern.exec(stderr);
                if (match) return match;
                if (Date.now() > deadline) throw new Error(`no ${pattern} in stderr: ${stderr}`);
                await new Promise((resolve) => setTimeout(resolve, 20));
              }
            },
            stdoutLines: () => lines,
            exited,
          });
        }
        newline = stdout.indexOf("\n");
      }
    });
    exited.then(({ code, signal }) => {
      clearTimeout(giveUp);
      reject(new Error(`server exited (${code ?? signal}) before listening: ${stderr}`));
    });
  });
}

/** Creates a key directly in the SQLite file a child will use; returns the plaintext key. */
export async function createKeyIn(
  databaseFile: string,
  options: NewKeyOptions = {
    plan: customPlan,
    name: "test",
    perMinute: 100_000,
    perDay: 1_000_000,
  },
): Promise<string> {
  const store = await openSqliteStore(databaseFile);
  try {
    return (await issueApiKey(store, policy, options)).key;
  } finally {
    await store.close();
  }
}

/** Kills a child if it is still running and waits for it. */
export async function kill(server: ServerProcess | undefined, signal: NodeJS.Signals = "SIGKILL") {
  if (!server) return;
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  await server.exited;
}

/** Runs the keys CLI to completion. */
export function runKeys(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [builtFile("keys-cli/keys-cli.js", KEYS_DIST), ...args], {
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += String(chunk);
  });
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}
