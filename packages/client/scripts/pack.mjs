#!/usr/bin/env node
// Packs the client as ONE installable tarball: `npm i ./<name>-<version>.tgz` in an empty folder
// gives a working, typed client, with no second package and no registry access.
//
// - The declarations of every `workspace:` dependency (the contract's types) are copied into
//   dist/vendor/<dependency>/ and the client's declarations import them by relative path, so the
//   tarball carries the types it was built against. The client imports them as types only
//   (checked here: a runtime import of a workspace package fails the pack).
// - The registry dependencies (openapi-fetch and what it imports) are vendored the same way, code
//   and declarations, into dist/vendor/<name>/ with their licences: installing needs no network
//   and no second package, and the tarball holds the exact versions its tests ran with. (npm's
//   `bundleDependencies` would do it too, but pnpm refuses to publish them from an isolated
//   node_modules.)
// - The staged package is written to `.pack/` (package.json's `publishConfig.directory`), so
//   `pnpm publish` (changesets, in the release workflow) publishes the same files as this tarball.
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const HELP = `Usage: pnpm client:pack [--out DIR] [--stage-only]

Builds nothing: run from the root (pnpm client:pack builds the client first).
Stages the client in packages/client/.pack/ (its dependencies vendored into dist/vendor/) and writes one tarball to DIR (default: the directory you ran the command from).
Prints the tarball's absolute path on stdout. --stage-only writes .pack/ and no tarball
(pnpm run release: pnpm publish publishes .pack/, publishConfig.directory).
`;

const clientDir = fileURLToPath(new URL("..", import.meta.url));

/** Every file under `dir`, as absolute paths. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

/** The package directory of `name` as the client resolves it (real path, outside the symlink). */
function packageDir(name, fromDir) {
  const require = createRequire(join(fromDir, "package.json"));
  let dir = dirname(require.resolve(name));
  while (
    !existsSync(join(dir, "package.json")) ||
    JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name !== name
  ) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the package directory of ${name}`);
    dir = up;
  }
  return realpathSync(dir);
}

/** `name` and its registry dependencies, transitively: name → real directory. */
function registryClosure(names, fromDir, into = new Map()) {
  for (const name of names) {
    if (into.has(name)) continue;
    const dir = packageDir(name, fromDir);
    into.set(name, dir);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    registryClosure(Object.keys(pkg.dependencies ?? {}), dir, into);
  }
  return into;
}

/** The file `import "name"` loads (the `import` condition of its exports, else `main`). */
function importEntry(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const root = typeof pkg.exports === "string" ? pkg.exports : pkg.exports?.["."];
  const entry = typeof root === "string" ? root : (root?.import ?? root?.default ?? pkg.main);
  if (typeof entry !== "string") throw new Error(`${pkg.name}: no ESM entry to vendor`);
  return entry.replace(/^\.\//, "");
}

/** Stages the publishable client in `stage` and returns its package.json. */
export function stageClient(stage = join(clientDir, ".pack")) {
  const pkg = JSON.parse(readFileSync(join(clientDir, "package.json"), "utf8"));
  const dist = join(clientDir, "dist");
  if (!existsSync(join(dist, "index.js"))) {
    throw new Error(
      "packages/client/dist is missing: run pnpm client:pack from the root (it builds first)",
    );
  }
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  // Source maps point at src/, which is not published.
  cpSync(dist, join(stage, "dist"), { recursive: true, filter: (from) => !from.endsWith(".map") });
  const vendor = join(stage, "dist", "vendor");

  // name → the vendored file an import of it resolves to.
  const entries = new Map();
  const deps = Object.entries(pkg.dependencies ?? {});
  for (const [name, range] of deps) {
    if (!range.startsWith("workspace:")) continue;
    // A workspace package is imported for its types only: its declarations are enough.
    const from = join(packageDir(name, clientDir), "dist");
    cpSync(from, join(vendor, ...name.split("/")), {
      recursive: true,
      filter: (file) => statSync(file).isDirectory() || file.endsWith(".d.ts"),
    });
    entries.set(name, { file: join(vendor, ...name.split("/"), "index.js"), typesOnly: true });
  }
  const registry = deps.filter(([, range]) => !range.startsWith("workspace:")).map(([n]) => n);
  for (const [name, dir] of registryClosure(registry, clientDir)) {
    const to = join(vendor, ...name.split("/"));
    cpSync(dir, to, {
      recursive: true,
      filter: (file) => !file.startsWith(join(dir, "node_modules")) && !file.endsWith(".map"),
    });
    entries.set(name, { file: join(to, importEntry(dir)), typesOnly: false });
    // Kept for attribution only: nothing resolves through a vendored package's manifest.
    const { version, license, repository, type } = JSON.parse(
      readFileSync(join(dir, "package.json"), "utf8"),
    );
    const manifest = { name, version, license, repository, type };
    writeFileSync(join(to, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  }

  const names = [...entries.keys()].map((n) => n.replace(/[/.]/g, "\\$&")).join("|");
  const specifier = new RegExp(`(from\\s*|import\\(\\s*)(["'])(${names})\\2`, "g");
  for (const file of filesUnder(join(stage, "dist"))) {
    if (!/\.(m?js|d\.m?ts)$/.test(file)) continue;
    const text = readFileSync(file, "utf8");
    const rewritten = text.replace(specifier, (_, lead, quote, name) => {
      const entry = entries.get(name);
      if (entry.typesOnly && !/\.d\.m?ts$/.test(file)) {
        throw new Error(`${relative(stage, file)} imports ${name} at run time; only types inline`);
      }
      let target = relative(dirname(file), entry.file).split(sep).join("/");
      if (!target.startsWith(".")) target = `./${target}`;
      return `${lead}${quote}${target}${quote}`;
    });
    if (rewritten !== text) writeFileSync(file, rewritten);
  }

  const staged = {
    name: pkg.name,
    version: pkg.version,
    description: pkg.description,
    license: pkg.license,
    repository: pkg.repository,
    keywords: pkg.keywords,
    engines: pkg.engines,
    type: pkg.type,
    sideEffects: pkg.sideEffects,
    exports: pkg.exports,
    types: pkg.types,
    browser: pkg.browser,
    files: ["dist"],
    publishConfig: { access: pkg.publishConfig?.access ?? "public", provenance: true },
  };
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(staged, null, 2)}\n`);
  for (const extra of ["README.md", "LICENSE", "CHANGELOG.md"]) {
    if (existsSync(join(clientDir, extra))) cpSync(join(clientDir, extra), join(stage, extra));
  }
  return staged;
}

/** Stages the client and writes its tarball into `outDir`; returns the tarball's path. */
export function packClient(outDir) {
  const stage = join(clientDir, ".pack");
  stageClient(stage);
  mkdirSync(outDir, { recursive: true });
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", outDir], {
    cwd: stage,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    // pnpm's own npm_config_* settings (when run as a pnpm script) are unknown to npm: left out.
    env: {
      ...Object.fromEntries(
        Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_config_")),
      ),
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
    },
  });
  return resolve(outDir, JSON.parse(out)[0].filename);
}

function main(argv) {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(HELP);
    return;
  }
  if (argv.includes("--stage-only")) {
    stageClient();
    return;
  }
  const at = argv.indexOf("--out");
  const outDir = resolve(at >= 0 ? argv[at + 1] : (process.env.INIT_CWD ?? process.cwd()));
  process.stdout.write(`${packClient(outDir)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  main(process.argv.slice(2).filter((a) => a !== "--"));
