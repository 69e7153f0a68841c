/** Child processes for the gates (Prism, the mock, the built server): started ready, always stopped. */
import { type ChildProcess, spawn } from "node:child_process";

/** Every child started here and not stopped yet. */
const running = new Set<ChildProcess>();
// Last resort when a test worker exits without its afterAll (a crash, a timeout): no orphans.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Stops every child still running (for afterAll, so a half-finished beforeAll leaks nothing). */
export async function stopAllChildren(): Promise<void> {
  await Promise.allSettled([...running].map((child) => stopChild(child)));
}

/** A running child with its combined output so far. */
export interface RunningChild {
  child: ChildProcess;
  /** The first match of the readiness pattern (e.g. the URL it printed). */
  ready: RegExpMatchArray;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns `command args` and resolves once its output matches `ready`; rejects with the output
 * when it exits first or does not get ready within `timeoutMs`.
 */
export function startChild(
  command: string,
  args: string[],
  options: { ready: RegExp; env?: NodeJS.ProcessEnv; timeoutMs?: number; label: string },
): Promise<RunningChild> {
  const child = spawn(command, args, {
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  const stop = () => stopChild(child);
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop();
      reject(new Error(`${options.label} ${why}; its output:\n${output}`));
    };
    const timer = setTimeout(() => fail("did not get ready in time"), options.timeoutMs ?? 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = options.ready.exec(output);
      if (match && timer) {
        clearTimeout(timer);
        child.off("exit", onExit);
        resolve({ child, ready: match, output: () => output, stop });
      }
    };
    const onExit = (code: number | null) => fail(`exited early (code ${code})`);
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
    child.once("error", (error) => fail(`could not start: ${error.message}`));
  });
}

/** SIGTERM, then SIGKILL after 3 s; resolves when the process is gone. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill("SIGKILL"), 3000);
    child.once("exit", () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
