#!/usr/bin/env node
// `pnpm keys ...` resolves to this bin (the root has no `keys` script), so pnpm prints no script
// banner and stdout carries only the CLI's own output: `KEY=$(pnpm keys create ...)` captures the key.
// It builds the server first (turbo, cached; its output goes to stderr) so a fresh clone works.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const build = spawnSync(
  `${root}node_modules/.bin/turbo`,
  ["run", "build", "--filter=@animal-store/server...", "--output-logs=errors-only"],
  { cwd: root, stdio: ["ignore", process.stderr, process.stderr] },
);
if (build.status !== 0) {
  console.error("keys: building the server failed (see above)");
  process.exit(build.status ?? 1);
}
// Same working directory as `pnpm start` (apps/server), so relative DATABASE_URLs name the same file.
process.chdir(fileURLToPath(new URL("..", import.meta.url)));
await import(new URL("../dist/keys-cli/keys-cli.js", import.meta.url).href);
