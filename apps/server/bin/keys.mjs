#!/usr/bin/env node
// `pnpm keys ...` resolves to this bin (the root has no `keys` script), so pnpm prints no script
// banner and stdout carries only the CLI's own output: `KEY=$(pnpm keys create ...)` captures the key.
// The CLI has a build of its own (dist-keys/, tsconfig.keys.json: the keys CLI, the store and the
// config, never the handler table), so keys work whatever state the handlers are in, and building
// it never touches dist/, which a running `pnpm dev` watches. Turbo skips the build when nothing
// changed; its output is shown only when the build fails.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const built = fileURLToPath(new URL("../dist-keys/keys-cli/keys-cli.js", import.meta.url));

/** The newest modification time under `path` (a file or a folder), tests and handlers aside. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry === "handlers" || entry.endsWith(".test.ts")) continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

// What build:keys reads: this package's sources and configuration, and what it imports from the
// workspace (their sources and the spec). When the build is newer than all of it, turbo is not
// started at all: it takes a second or two, and started from a test inside \`pnpm test\`'s own turbo
// run it was seen to stall past a minute.
const inputs = [
  "apps/server/src",
  "apps/server/tsconfig.keys.json",
  "apps/server/package.json",
  "packages/openapi-engine/src",
  "packages/api-types/src",
  "openapi/src",
  "openapi/openapi.yaml",
];
// Help has no side effect: it never builds. The built CLI prints the usage (with the spec's plans,
// read when it runs); before the first build there is only this summary.
const words = process.argv.slice(2).filter((word) => word !== "--");
if (["help", "-h", "--help"].includes(words[0] ?? "") && !existsSync(built)) {
  console.log(
    "usage: keys create | list | revoke | usage | backup | help\n\nThe full usage comes with the keys CLI, built on its first real use (e.g. pnpm keys list).",
  );
  process.exit(0);
}
const fresh =
  existsSync(built) && inputs.every((input) => newest(join(root, input)) < statSync(built).mtimeMs);
const helpOnly = ["help", "-h", "--help"].includes(words[0] ?? "");
const build =
  fresh || helpOnly
    ? { status: 0 }
    : spawnSync(
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
