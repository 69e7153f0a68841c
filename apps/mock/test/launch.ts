// Starts the real launcher (`node src/main.mjs`) on a free port, as `pnpm mock` does, without the
// MOCK_* variables of the environment it runs in.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const LAUNCHER = fileURLToPath(new URL("../src/main.mjs", import.meta.url));

export interface LaunchedMock {
  /** The API base URL printed by the launcher, e.g. http://127.0.0.1:41234/v1 */
  url: string;
  /** Its origin, e.g. http://127.0.0.1:41234 (the ops routes live there). */
  origin: string;
  child: ChildProcess;
  output: () => string;
  /** Sends `signal` and resolves with the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** Runs the launcher with `args` and waits for the line that names its URL. */
export async function launchMock(args: string[] = [], timeoutMs = 20_000): Promise<LaunchedMock> {
  const child = spawn(process.execPath, [LAUNCHER, "--port", "0", ...args], {
    env: Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("MOCK_")),
    ),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const exited = once(child, "exit");
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const [code] = await exited;
    return code as number | null;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const look = () => {
      const match = /serving .* at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", look);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the launcher exited with ${code}:\n${output}`));
    });
  }).catch(async (error) => {
    await stop("SIGKILL");
    throw error;
  });
  return { url, origin: new URL(url).origin, child, output: () => output, stop };
}
