/**
 * `pnpm --filter @animal-store/bench snapshot-server`: deploys the server's current build, with
 * copies of everything it runs on (the engine and the spec module included), to a temporary
 * directory and prints the path of its dist/, so that after a change
 * `pnpm bench -- --only=server --compare=<path>` measures before and after in the same rounds.
 * The snapshot is self-contained: rebuilding the workspace packages later does not change it.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const target = await mkdtemp(join(tmpdir(), "animal-store-server-snapshot-"));
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
  ["pnpm", "--filter", "@animal-store/server", "deploy", "--legacy", "--prod", target],
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
console.log(join(target, "dist"));
