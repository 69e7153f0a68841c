#!/usr/bin/env node
// `pnpm --filter @animal-store/dev-loop planted-faults [--check] [index ...]`: plants each fault below of
// the user's loop (issue 27: a spec ahead of the code, stopping, keys, the dev loop, the build
// graph), rebuilds what runs from a build, runs the test that guards against it, and reports
// whether the test caught it; the file is restored after each. Not part of `pnpm test` (it
// rebuilds per fault and runs the drill): run it after changing a guarded edge or its test, and
// do not edit, build or commit meanwhile (a fault is in the working tree).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * { what, file (from the repo root), text, replacement, pkg (where the test runs), test, name
 * (test name filter), build (packages rebuilt with `tsc -p tsconfig.build.json` first) }
 */
const FAULTS = [
  {
    what: "typecheck does not compile handlers.check.ts",
    file: "apps/server/tsconfig.json",
    text: '"include": ["src", "test"]',
    replacement: '"include": ["src", "test"], "exclude": ["src/**/*.check.ts"]',
    pkg: "packages/dev-loop",
    test: "test/drill-spec-ahead.test.ts",
  },
  {
    what: "the build compiles handlers.check.ts (a missing handler breaks the build)",
    file: "apps/server/tsconfig.build.json",
    text: ', "src/**/*.check.ts"',
    replacement: "",
    pkg: "packages/dev-loop",
    test: "test/drill-spec-ahead.test.ts",
  },
  {
    what: "the keys CLI imports the composition root (and so the handler table)",
    file: "apps/server/src/keys-cli/keys-command.ts",
    text: 'import { configFrom } from "../app-config.js";',
    replacement: 'import { configFrom } from "../animal-store.js";',
    pkg: "packages/dev-loop",
    test: "test/drill-spec-ahead.test.ts",
  },
  {
    what: "a missing handler answers a plain 500 internal_error, logged per call",
    file: "packages/openapi-engine/src/responses/handle.ts",
    text: "next(engineErrors.notImplemented(operation.operationId));",
    replacement: 'next(new Error("no handler")); void engineErrors;',
    pkg: "packages/dev-loop",
    test: "test/drill-spec-ahead.test.ts",
    name: "the server starts",
    build: ["packages/openapi-engine"],
  },
  {
    what: "the server dies of the second SIGINT (Ctrl-C and pnpm's forward)",
    file: "apps/server/src/main.ts",
    text: "process.on(signal, () => shutdown(signal));",
    replacement: "process.once(signal, () => shutdown(signal));",
    // The drill's Ctrl-C may deliver both SIGINTs as one (signals coalesce): this test sends the
    // second while a request is still draining.
    pkg: "apps/server",
    test: "test/server-process.test.ts",
    name: "again while draining",
    build: ["apps/server"],
  },
  {
    what: "pnpm start without exec (pnpm's SIGTERM stops the shell, not the server)",
    file: "package.json",
    text: '"start": "exec node scripts/run.mjs start",',
    // `&& true` keeps the shell from exec-ing node itself: the shell stays between them.
    replacement: '"start": "node scripts/run.mjs start && true",',
    pkg: "packages/dev-loop",
    test: "test/drill-signals.test.ts",
    name: "pnpm start on SIGTERM",
  },
  {
    what: "pnpm dev without exec",
    file: "package.json",
    text: '"dev": "exec node scripts/run.mjs dev",',
    replacement: '"dev": "node scripts/run.mjs dev && true",',
    pkg: "packages/dev-loop",
    test: "test/drill-signals.test.ts",
    name: "pnpm dev on SIGTERM",
  },
  {
    what: "the dev loop exits on a signal without stopping its services",
    file: "packages/dev-loop/src/main.mjs",
    text: "    started\n      .then((loop) => loop.stop())\n",
    replacement: "    Promise.resolve()\n",
    pkg: "packages/dev-loop",
    test: "test/drill-signals.test.ts",
    name: "pnpm dev on SIGTERM",
  },
  {
    what: "the old server stops before the new one listens (connections refused)",
    file: "packages/dev-loop/src/handoff-service.mjs",
    text: "      const forked = standby ?? fork();",
    replacement:
      "      if (current) await stopWorker(current);\n      const forked = standby ?? fork();",
    pkg: "packages/dev-loop",
    test: "test/handoff.test.ts",
    name: "answers every request",
  },
  {
    what: "the last good bundle recorded as soon as lint passes",
    file: "packages/dev-loop/src/spec-pipeline.mjs",
    text: "      const yamlChanged = await writeIfChanged(yamlPath, yaml);\n",
    replacement:
      "      const yamlChanged = await writeIfChanged(yamlPath, yaml);\n      lastGood = { json, yaml };\n",
    pkg: "packages/dev-loop",
    test: "test/handoff.test.ts",
    name: "cannot start the server",
  },
  {
    what: "lint paths relative to the dev-loop package",
    file: "packages/dev-loop/src/spec-pipeline.mjs",
    text: "formatProblem(problem, layout.root)",
    replacement: "formatProblem(problem)",
    pkg: "packages/dev-loop",
    test: "test/dev-loop.test.ts",
  },
  {
    what: "service logs relayed as raw JSON in development",
    file: "packages/dev-loop/src/output.mjs",
    text: "const text = json ? line : prettyLine(line);",
    replacement: "const text = line;",
    pkg: "packages/dev-loop",
    test: "test/output.test.ts",
  },
  {
    what: "build does not wait for generate (types lag the spec, generate races the build)",
    file: "turbo.json",
    text: '"build": {\n      "dependsOn": ["^build", "^bundle", "generate"],',
    replacement: '"build": {\n      "dependsOn": ["^build", "^bundle"],',
    pkg: "packages/api-types",
    test: "test/build-graph.test.ts",
  },
  {
    what: "generate:check compares the working copy (which the build regenerated)",
    file: "scripts/write-generated.mjs",
    text: "if ((committed.text ?? working) !== fresh) {",
    replacement: "if (working !== fresh) {",
    pkg: "packages/api-types",
    test: "test/drift-gate.test.ts",
  },
  {
    what: "keys create a missing database file silently",
    file: "apps/server/src/keys-cli/database.ts",
    text: "  if (existsSync(database.path)) return undefined;\n",
    replacement: "  return undefined;\n",
    pkg: "apps/server",
    test: "test/keys-cli.test.ts",
    name: "refuses a file: database",
  },
  {
    what: "the port holder lookup names this very process",
    file: "packages/openapi-engine/src/http-server/port-holder.ts",
    text: "if (Number(pid) === process.pid || !holdsSocket(pid, sockets)) continue;",
    replacement: "if (!holdsSocket(pid, sockets)) continue;",
    pkg: "packages/openapi-engine",
    test: "src/http-server/port-holder.test.ts",
  },
  {
    what: "SQLite migrations outside a transaction (a failing one half applied)",
    file: "packages/openapi-engine/src/storage/sqlite-database.ts",
    text: "  override get supportsTransactionalDdl(): boolean {\n    return true;",
    replacement: "  override get supportsTransactionalDdl(): boolean {\n    return false;",
    pkg: "packages/openapi-engine",
    test: "src/storage/migrate.test.ts",
  },
  {
    what: "a failing migration's statement not named",
    file: "packages/openapi-engine/src/storage/migrate.ts",
    text: "failedStatement = compiled.sql;",
    replacement: "void compiled;",
    pkg: "packages/openapi-engine",
    test: "src/storage/migrate.test.ts",
  },
  {
    what: "scaffold overwrites an existing handler file",
    file: "packages/scaffold/src/scaffold.mjs",
    text: "if (existsSync(at(path))) {",
    replacement: "if (existsSync(at(path)) && false) {",
    pkg: "apps/server",
    test: "test/scaffold.test.ts",
  },
];

const run = (command, args, cwd) =>
  spawnSync(command, args, {
    cwd: `${root}${cwd}`,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
const build = (dirs) => {
  for (const dir of dirs) {
    const result = run("pnpm", ["exec", "tsc", "-p", "tsconfig.build.json"], dir);
    if (result.status !== 0) return result;
  }
  return { status: 0 };
};

const USAGE = `usage: planted-faults.mjs [--check] [index ...]
  plants each fault (or the faults of the given indexes, from 0) in turn, rebuilds what runs from
  a build, runs the test that guards against it, reports whether it caught it, and restores the file
  --check   only report whether each fault's text is still in its file; plant nothing
  --help    print this and exit`;
const argv = process.argv.slice(2);
if (argv.includes("--help") || argv.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
const wrong = argv.filter(
  (arg) => arg !== "--check" && !(/^\d+$/.test(arg) && Number(arg) < FAULTS.length),
);
if (wrong.length > 0) {
  console.error(`planted-faults: not an option or a fault's index: ${wrong.join(" ")}\n${USAGE}`);
  process.exit(2);
}
const checkOnly = argv.includes("--check");
const only = argv.filter((arg) => arg !== "--check").map(Number);
let missed = 0;
for (const [index, fault] of FAULTS.entries()) {
  if (only.length > 0 && !only.includes(index)) continue;
  const path = `${root}${fault.file}`;
  const original = readFileSync(path, "utf8");
  if (!original.includes(fault.text)) {
    console.log(`[${index}] ${fault.what}: the code moved, update the fault`);
    missed++;
    continue;
  }
  if (checkOnly) {
    console.log(`[${index}] ${fault.what}: its text is in ${fault.file}`);
    continue;
  }
  writeFileSync(path, original.replace(fault.text, fault.replacement));
  try {
    if (build(fault.build ?? []).status !== 0) {
      throw new Error(`the planted fault does not build: ${fault.what}`);
    }
    const filter = fault.name ? ["-t", fault.name] : [];
    const result = run("pnpm", ["exec", "vitest", "run", fault.test, ...filter], fault.pkg);
    const caught = result.status !== 0;
    if (!caught) missed++;
    console.log(
      `[${index}] ${fault.what}: ${caught ? "caught" : "NOT caught"} by ${fault.pkg}/${fault.test}${fault.name ? ` (${fault.name})` : ""}`,
    );
  } finally {
    writeFileSync(path, original);
    build(fault.build ?? []);
  }
}
process.exitCode = missed === 0 ? 0 : 1;
