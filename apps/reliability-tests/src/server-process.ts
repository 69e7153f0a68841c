/**
 * Real server processes (`node apps/server/dist/main.js`) for multi-instance, fault and crash
 * suites: spawned on a free loopback port with the given environment, awaited until they answer
 * HTTP, and stopped or SIGKILLed on demand.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { freePort } from "@animal-store/test-support/free-port";

const require = createRequire(import.meta.url);
/** The server's entry point and its key CLI, as the server package exports them. */
export const SERVER_MAIN = require.resolve("@animal-store/server/main");
export const KEYS_CLI = require.resolve("@animal-store/server/keys-cli");

/** A running server process. */
export interface ServerProcess {
  /** Base URL without the `/v1` suffix, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly child: ChildProcess;
  /** stdout + stderr so far (last 64 KiB), for failure messages. */
  output(): string;
  /** Sends `signal` and resolves when the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Polls `url` until it answers any HTTP status, or rejects after `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs: number, child?: ChildProcess) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      return res.status;
    } catch {
      if (Date.now() > deadline) throw new Error(`no HTTP answer from ${url} in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Spawns the server with `env` (merged over a minimal base) and waits until it answers. */
export async function spawnServer(
  env: Record<string, string>,
  opts: { readyTimeoutMs?: number; entry?: string; cwd?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [opts.entry ?? SERVER_MAIN], {
    cwd: opts.cwd,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      // Several instances on one host: no metrics listener unless a suite asks for one.
      METRICS_PORT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-65536);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const proc: ServerProcess = {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => log,
    async kill(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  try {
    await waitForHttp(`${proc.url}/healthz`, opts.readyTimeoutMs ?? 15000, child);
  } catch (error) {
    await proc.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n${log}`);
  }
  return proc;
}

/** Creates an API key with the server's CLI against `env`'s store; resolves to the plaintext key. */
export function createKeyWithCli(
  env: Record<string, string>,
  opts: { plan: string; name: string; perMinute?: number; perDay?: number; cli?: string },
): Promise<string> {
  // Scratch databases: the suites may create the key before any server has created the file.
  const args = [
    opts.cli ?? KEYS_CLI,
    "create",
    "--create-database",
    "--plan",
    opts.plan,
    "--name",
    opts.name,
  ];
  if (opts.perMinute !== undefined) args.push("--per-minute", String(opts.perMinute));
  if (opts.perDay !== undefined) args.push("--per-day", String(opts.perDay));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { env: { PATH: process.env.PATH ?? "", ...env }, timeout: 20000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`keys CLI failed: ${stderr.trim()}`));
        else resolve(stdout.trim());
      },
    );
  });
}
