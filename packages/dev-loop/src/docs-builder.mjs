// @ts-check
// Rebuilds the docs page in the background with the docs package's own `build` script; saves that
// arrive during a build are coalesced into one more build.
import { spawn } from "node:child_process";
import { delimiter, join } from "node:path";

/**
 * @param {{ dir: string, script: string, env: Record<string, string | undefined>, print?: (line: string) => void }} options
 */
export function createDocsBuilder(options) {
  const print = options.print ?? ((line) => console.log(line));
  /** @type {Promise<void> | null} */
  let running = null;
  let again = false;

  const buildOnce = () =>
    new Promise((resolve) => {
      const start = performance.now();
      const child = spawn(options.script, {
        shell: true,
        cwd: options.dir,
        env: {
          ...options.env,
          PATH: [join(options.dir, "node_modules/.bin"), options.env.PATH].join(delimiter),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout?.on("data", (chunk) => (output += chunk));
      child.stderr?.on("data", (chunk) => (output += chunk));
      child.once("exit", (code) => {
        const ms = Math.round(performance.now() - start);
        if (code === 0) print(`[dev] docs rebuilt in ${ms} ms (served at /docs)`);
        else print(`[dev] docs build failed (${code}):\n${output.trim()}`);
        resolve(undefined);
      });
    });

  return {
    /** Starts a build, or queues one more if a build is running; resolves when all are done. */
    rebuild() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        do {
          again = false;
          await buildOnce();
        } while (again);
        running = null;
      })();
      return running;
    },
    /** Resolves when no build is running. */
    idle() {
      return running ?? Promise.resolve();
    },
  };
}
