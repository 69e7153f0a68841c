/** The project's mock, started the way a frontend developer starts it (`pnpm mock [args]`). */

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { basePath } from "@animal-store/test-support/spec-values";
import { startChild } from "./child-process.js";

const require = createRequire(import.meta.url);
const launcher = join(
  dirname(require.resolve("@animal-store/mock/package.json")),
  "src",
  "main.mjs",
);

/** A running mock: `url` is its API base URL, ending in `/v1` like the real server's. */
export interface RunningMock {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `apps/mock`'s launcher on a free port with `args` (Prism by default, `--stateful`, a
 * `--spec` of its own...) and waits for the address it prints.
 */
export async function startMock(args: string[] = []): Promise<RunningMock> {
  const running = await startChild(process.execPath, [launcher, "--port", "0", ...args], {
    label: `the mock (apps/mock${args.length > 0 ? ` ${args.join(" ")}` : ""})`,
    ready: new RegExp(` at (http://\\S+${basePath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")})\\b`),
    timeoutMs: 60_000,
  });
  const url = running.ready[1];
  if (!url) throw new Error(`the mock printed no address:\n${running.output()}`);
  return { url, stop: running.stop };
}
