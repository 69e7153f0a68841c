/**
 * Every process the bench starts goes through here, in its own process group, so one call can end
 * each of them and everything it spawned (pnpm → node → Prism) however the run ends.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";

const live = new Set<ChildProcess>();
const afterStop = new Set<() => Promise<void>>();
let stopReason: string | null = null;

export function spawnTracked(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // The group has already exited.
  }
}

/** Stops one child and its group: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopTracked(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    signalGroup(child, "SIGTERM");
    const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
    await exited;
    clearTimeout(timer);
  }
  signalGroup(child, "SIGKILL"); // grandchildren may outlive their parent
}

/**
 * Registers what a run leaves outside its processes (a PostgreSQL schema, Redis keys, scratch
 * files), removed by `stopAll`; returns the function that unregisters it.
 */
export function cleanUpWhenStopped(cleanup: () => Promise<void>): () => void {
  afterStop.add(cleanup);
  return () => afterStop.delete(cleanup);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((child) => stopTracked(child)));
  const cleanups = [...afterStop];
  afterStop.clear();
  await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
}

/**
 * Why the run is being stopped early (a signal, the time budget), or null: a stopped run measures
 * nothing more and must not replace the published results with its partial ones.
 */
export const stoppedEarly = (): string | null => stopReason;

/** Makes sure no child outlives the bench: on exit, on Ctrl-C/SIGTERM and after `deadlineMs`. */
export function installCleanup(deadlineMs: number): void {
  process.once("exit", () => {
    for (const child of live) signalGroup(child, "SIGKILL");
  });
  const stop = (reason: string, code: number) => {
    stopReason = reason;
    console.error(`\nbench: ${reason}, stopping every process it started`);
    void stopAll().finally(() => process.exit(code));
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => stop(signal, 130));
  }
  setTimeout(() => stop(`over its ${deadlineMs / 1000} s budget`, 1), deadlineMs).unref();
}

/** Runs a command to completion (tracked), returning its exit code, wall time and output. */
export function runTimed(
  command: string,
  args: string[],
  options: SpawnOptions & { timeoutMs?: number } = {},
): Promise<{ code: number | null; ms: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawnTracked(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => void stopTracked(child, 500), options.timeoutMs ?? 300_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, ms: performance.now() - started, stdout, stderr });
    });
  });
}
