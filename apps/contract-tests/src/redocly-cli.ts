/** Runs the project's pinned Redocly CLI (`@redocly/cli`) as a child process, offline and quiet. */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/** The CLI's entry script, run with this Node so no shell wrapper or PATH lookup is involved. */
export const redoclyEntry = join(
  dirname(require.resolve("@redocly/cli/package.json")),
  "bin",
  "cli.js",
);

/** This package's directory: its `redocly.yaml` turns telemetry off for every command run here. */
export const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** What a finished CLI run left behind. */
export interface CliRun {
  exitCode: number;
  stdout: string;
  /** stdout and stderr together, without the CLI's Node-version banner. */
  output: string;
}

/** Runs `redocly <args>` in this package's directory; never rejects on a non-zero exit. */
export function runRedocly(args: string[], timeoutMs = 120_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [redoclyEntry, ...args],
      {
        cwd: packageDir,
        timeout: timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: "off",
          REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
          NO_COLOR: "1",
          FORCE_COLOR: "0",
        },
      },
      (error, stdout, stderr) => {
        const output = withoutBanner(`${stdout}${stderr}`);
        if (error && typeof error.code !== "number") reject(error);
        else
          resolve({ exitCode: typeof error?.code === "number" ? error.code : 0, stdout, output });
      },
    );
  });
}

/** Drops the boxed Node-version banner the CLI prints on Node 20: it is noise in gate reports. */
function withoutBanner(text: string): string {
  return text
    .split("\n")
    .filter((line) => !/[║╔╚]/.test(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
