#!/usr/bin/env node
// `pnpm artifact <dir>`: writes a self-contained server folder to <dir> (which must not exist, or
// be empty). `pnpm deploy --prod` from the lockfile gives the built server and its production
// dependencies (each workspace package trimmed to its package.json `files`: built code and the
// bundled spec); this script adds the docs page and the artifact's entry points:
//   node <dir>                 the server, production defaults (see src/artifact/defaults.ts)
//   node <dir>/keys.mjs ...    the keys CLI on the same defaults
// The root script builds the server, the bundle and the docs page first.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const [target, ...extra] = process.argv.slice(2);
if (!target || extra.length > 0) {
  console.error("usage: pnpm artifact <dir>");
  process.exit(2);
}
// pnpm runs root scripts in the repository; a relative <dir> is the caller's.
const dir = isAbsolute(target) ? target : resolve(process.env.INIT_CWD ?? process.cwd(), target);
if (existsSync(dir) && readdirSync(dir).length > 0) {
  console.error(`artifact: ${dir} is not empty`);
  process.exit(1);
}
const docsPage = `${repo}apps/docs/dist/index.html`;
for (const built of [
  docsPage,
  `${repo}apps/server/dist/artifact/server.js`,
  `${repo}openapi/dist/openapi.json`,
]) {
  if (!existsSync(built)) {
    console.error(`artifact: ${built} is missing (pnpm artifact builds it first)`);
    process.exit(1);
  }
}

// Injected workspace packages are copies (not links into the repo), installed from the lockfile.
const deploy = spawnSync(
  "pnpm",
  [
    "--config.inject-workspace-packages=true",
    "--filter=@animal-store/server",
    "deploy",
    "--prod",
    "--prefer-offline",
    dir,
  ],
  { cwd: repo, stdio: ["ignore", process.stderr, process.stderr] },
);
if (deploy.status !== 0) {
  console.error("artifact: pnpm deploy failed (see above)");
  process.exit(deploy.status ?? 1);
}

mkdirSync(`${dir}/docs`, { recursive: true });
copyFileSync(docsPage, `${dir}/docs/index.html`);
writeFileSync(`${dir}/keys.mjs`, 'import "./dist/artifact/keys.js";\n');

// Type declarations and source maps are for the repository's tooling, not for running.
for (const entry of readdirSync(`${dir}/dist`, { recursive: true })) {
  if (/\.(d\.ts|map)$/.test(entry)) rmSync(`${dir}/dist/${entry}`);
}

// `node <dir>` runs package.json's main; the repository's scripts and bin do not apply here.
const manifest = JSON.parse(readFileSync(`${dir}/package.json`, "utf8"));
const artifactManifest = {
  name: manifest.name,
  version: manifest.version,
  private: true,
  type: "module",
  description: `${manifest.description} (deployable artifact: node . starts it, node keys.mjs manages keys)`,
  main: "./dist/artifact/server.js",
  engines: { node: ">=20.19.0" },
  // Installed in node_modules already; the workspace packages' entries name this repository.
  dependencies: Object.fromEntries(
    Object.entries(manifest.dependencies).filter(([, spec]) => !String(spec).includes("file:")),
  ),
};
writeFileSync(`${dir}/package.json`, `${JSON.stringify(artifactManifest, null, 2)}\n`);
console.error(`artifact: written to ${dir} (start: node ${dir}; keys: node ${dir}/keys.mjs)`);
