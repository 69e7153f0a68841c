#!/usr/bin/env node
// `pnpm keys ...` resolves to this bin (the root has no `keys` script), so pnpm prints no script
// banner and stdout carries only the CLI's own output: `KEY=$(pnpm keys create ...)` captures the key.
// The CLI has a build of its own (dist-keys/, tsconfig.keys.json: the keys CLI, the store and the
// config, never the handler table), so keys work whatever state the handlers are in, and building
// it never touches dist/, which a running `pnpm dev` watches. Turbo skips the build when nothing
// changed; its output is shown only when the build fails.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const build = spawnSync(
  `${root}node_modules/.bin/turbo`,
  ["run", "build:keys", "--filter=@animal-store/server", "--output-logs=errors-only"],
  {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    env: { TURBO_TELEMETRY_DISABLED: "1", ...process.env },
  },
);
if (build.status !== 0) {
  process.stderr.write(`${build.stdout ?? ""}${build.stderr ?? ""}`);
  console.error("keys: building the keys CLI failed (see above)");
  process.exit(build.status ?? 1);
}
// Same working directory as `pnpm start` (apps/server), so relative DATABASE_URLs name the same file.
process.chdir(fileURLToPath(new URL("..", import.meta.url)));
await import(new URL("../dist-keys/keys-cli/keys-cli.js", import.meta.url).href);
