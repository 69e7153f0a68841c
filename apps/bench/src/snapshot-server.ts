/**
 * `pnpm --filter @animal-store/bench snapshot-server`: deploys the server's current build, with
 * copies of everything it runs on (the engine and the spec module included), to a temporary
 * directory and prints the path of its dist/, so that after a change
 * `pnpm bench -- --only=server --compare=<path>` measures before and after in the same rounds.
 * The snapshot is self-contained: rebuilding the workspace packages later does not change it.
 * (`pnpm deploy` hard-links the workspace packages' own files, so a later build of the workspace
 * would rewrite them in the snapshot too: the deployed tree is copied file by file, then dropped.)
 */
import { spawnSync } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const target = await mkdtemp(join(tmpdir(), "animal-store-server-snapshot-"));
const deployed = `${target}-deployed`;
// Built first (turbo, cached), so the snapshot is the current sources' build.
const steps = [
  [
    "pnpm",
    "exec",
    "turbo",
    "run",
    "build",
    "--filter=@animal-store/server...",
    "--output-logs=errors-only",
  ],
  ["pnpm", "--filter", "@animal-store/server", "deploy", "--legacy", "--prod", deployed],
];
for (const [command, ...args] of steps) {
  const run = spawnSync(command as string, args, {
    cwd: root,
    stdio: ["ignore", process.stderr, process.stderr],
  });
  if (run.status !== 0) {
    console.error(`snapshot-server: ${command} ${args.join(" ")} failed`);
    process.exit(run.status ?? 1);
  }
}
// New files (no links back into the workspace); node_modules' links stay relative, as pnpm made them.
await cp(deployed, target, { recursive: true, verbatimSymlinks: true });
await rm(deployed, { recursive: true, force: true });
console.log(join(target, "dist"));
