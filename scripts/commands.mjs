// @ts-check
// Every root script of package.json, as `scripts/run.mjs` runs it: its usage, the options it takes
// (checked before anything is built or started), what it builds with turbo first, and what it runs
// then. `scripts/test/root-commands.test.mjs` walks this table and package.json together.

/**
 * @typedef {import("node:util").ParseArgsConfig["options"]} Options
 * @typedef {{
 *   usage: string,
 *   options?: Options,
 *   positionals?: boolean,
 *   parse?: (args: string[]) => Promise<string | undefined>,
 *   build?: { what: string, turbo: string[] },
 *   turbo?: string[],
 *   passTurboFlags?: boolean,
 *   program?: { cwd: string, file: string },
 *   tool?: { bin: string, args: string[] },
 *   steps?: string[][],
 *   longRunning?: boolean,
 * }} Command
 */

/** Flags of `turbo run` that the turbo-backed scripts pass on (anything after `--` goes to the tasks). */
const TURBO_FLAGS = /** @type {Options} */ ({
  continue: { type: "boolean" },
  force: { type: "boolean" },
  filter: { type: "string", short: "F", multiple: true },
  concurrency: { type: "string" },
  "output-logs": { type: "string" },
  summarize: { type: "boolean" },
  dry: { type: "string" },
  affected: { type: "boolean" },
});

const TURBO_USAGE = `
turbo options passed on: --continue, --force, --filter <pkg> (-F), --concurrency <n>,
  --output-logs <mode>, --summarize, --dry <text|json>, --affected; after --, the tasks' own.`;

const errorsOnly = "--output-logs=errors-only";

/** A script that is one `turbo run`. */
function turboScript(/** @type {string} */ what, /** @type {string[]} */ turbo) {
  return {
    usage: `Usage: pnpm ${what}\n${TURBO_USAGE}`,
    options: TURBO_FLAGS,
    turbo,
    passTurboFlags: true,
  };
}

/** @type {Record<string, Command>} */
export const COMMANDS = {
  build: turboScript("build\n\nBuilds every package (turbo, cached).", ["run", "build"]),
  lint: turboScript("lint\n\nLints the spec (Redocly, spec-facts rules) and the code (Biome).", [
    "run",
    "lint",
    "lint:code",
  ]),
  bundle: turboScript("bundle\n\nBundles openapi/openapi.yaml into openapi/dist.", [
    "run",
    "bundle",
  ]),
  generate: turboScript("generate\n\nRegenerates the code generated from the spec.", [
    "run",
    "generate",
  ]),
  "generate:check": turboScript(
    "generate:check\n\nFails when a generated file differs from what the spec gives.",
    ["run", "generate:check"],
  ),
  typecheck: turboScript("typecheck\n\nType-checks every package.", ["run", "typecheck"]),
  test: turboScript(
    "test\n\nlint, lint:code, generate:check, typecheck and every package's tests (CI's command).",
    [
      "run",
      "lint",
      "lint:code",
      "generate:check",
      "typecheck",
      "test",
      "--concurrency=2",
      "--output-logs=new-only",
    ],
  ),
  bench: turboScript(
    "bench [-- bench options]\n\nThe benchmarks (apps/bench/README.md lists their options).",
    ["run", "bench"],
  ),
  format: {
    usage:
      "Usage: pnpm format [path ...]\n\nFormats the code in place (Biome); by default all of it.",
    positionals: true,
    tool: { bin: "biome", args: ["format", "--write"] },
  },
  "lint:code": {
    usage:
      "Usage: pnpm lint:code [--write] [path ...]\n\nBiome's checks; --write applies its fixes.",
    options: { write: { type: "boolean" } },
    positionals: true,
    tool: { bin: "biome", args: ["check"] },
  },
  start: {
    usage: `Usage: pnpm start

Builds the server and what it needs (turbo, cached), then serves the API on HOST:PORT (default
127.0.0.1:8080) until SIGINT or SIGTERM. Configured by environment variables only: see
apps/server/README.md.`,
    build: { what: "the server", turbo: ["run", "build", "--filter=@animal-store/server..."] },
    program: { cwd: "apps/server", file: "dist/boot.js" },
    longRunning: true,
  },
  artifact: {
    usage: `Usage: pnpm artifact <dir>

Builds the server, the bundle and the docs page, then writes a self-contained server folder to
<dir> (which must not exist, or be empty). See README.md, "Deploying".`,
    positionals: true,
    parse: async (args) => (args.length === 1 ? undefined : "needs exactly one <dir>"),
    build: {
      what: "the server, the bundle and the docs page",
      turbo: [
        "run",
        "build",
        "bundle",
        "--filter=@animal-store/server...",
        "--filter=@animal-store/docs",
      ],
    },
    program: { cwd: ".", file: "apps/server/scripts/artifact.mjs" },
  },
  mock: {
    usage: "", // the mock's own (apps/mock/src/options.mjs)
    parse: async (args) => {
      const { parseMockCommand } = await import("../apps/mock/src/options.mjs");
      const command = parseMockCommand(args, process.env);
      return command.kind === "error" ? command.message : undefined;
    },
    build: {
      what: "the mock",
      turbo: ["run", "build", "bundle", "--filter=@animal-store/mock..."],
    },
    program: { cwd: "apps/mock", file: "src/main.mjs" },
    longRunning: true,
  },
  docs: {
    usage: `Usage: pnpm run docs

Builds the API reference page, apps/docs/dist/index.html (one self-contained page; pnpm docs is
pnpm's own command).`,
    turbo: ["run", "build", "--filter=@animal-store/docs", errorsOnly],
  },
  web: {
    usage: `Usage: pnpm web

Builds what the web app needs, then serves it with Vite (WEB_PORT, default 5173) on the stateful
mock (WEB_MOCK=prism for Prism; WEB_API_URL for another API), until SIGINT or SIGTERM. See
apps/web/README.md.`,
    build: {
      what: "the web app's packages",
      turbo: ["run", "build", "bundle", "--filter=@animal-store/web^..."],
    },
    program: { cwd: "apps/web", file: "scripts/web.mjs" },
    longRunning: true,
  },
  "client:pack": {
    usage: `Usage: pnpm client:pack [--out DIR] [--stage-only]

Builds the client, then writes it as ONE tarball (the contract's types and openapi-fetch inside,
no dependencies) into DIR (default: the directory you ran pnpm from) and prints its path:
npm install ./animal-store-client-<version>.tgz. --stage-only writes packages/client/.pack/ (what
pnpm publish publishes) and no tarball. See packages/client/README.md, "Packaging".`,
    options: {
      out: { type: "string" },
      "stage-only": { type: "boolean" },
    },
    build: {
      what: "the client",
      turbo: ["run", "build", "--filter=@animal-store/client..."],
    },
    program: { cwd: "packages/client", file: "scripts/pack.mjs" },
  },
  dev: {
    usage: `Usage: pnpm dev [--no-server] [--no-mock] [--no-docs]

Builds what the loop needs, then watches openapi/: on every save lints, bundles, regenerates,
restarts the server and the mock and rebuilds the docs, until SIGINT, SIGTERM or SIGHUP. See
packages/dev-loop/README.md.

The mock reads the variables of pnpm mock: MOCK_STATEFUL=1 pnpm dev runs the stateful mock (the
server's answers over data in memory) instead of Prism; MOCK_PLAN, MOCK_SEED and the others in
apps/mock/README.md apply too. The server reads PORT and its other variables.`,
    options: {
      "no-server": { type: "boolean" },
      "no-mock": { type: "boolean" },
      "no-docs": { type: "boolean" },
    },
    build: {
      what: "the dev loop's packages",
      // dev-loop imports no application: what it runs is named by the root dev-loop.config.mjs
      // (found from packages/dev-loop upwards), so the applications are built here by name.
      turbo: [
        "run",
        "build",
        "bundle",
        "--filter=@animal-store/dev-loop...",
        "--filter=@animal-store/server...",
        "--filter=@animal-store/mock...",
        "--filter=@animal-store/docs...",
        "--filter=@animal-store/client...",
      ],
    },
    program: { cwd: "packages/dev-loop", file: "src/main.mjs" },
    longRunning: true,
  },
  scaffold: {
    usage: `Usage: pnpm scaffold [--prune]

Regenerates the types, then writes a handler stub, its store method and its test for each
operation of the spec without a handler; never overwrites a file. Names the handlers whose
operation left the spec; --prune removes them. See README.md.`,
    options: { prune: { type: "boolean" } },
    // The types and what the scaffold reads, and no application: it runs while the handlers no
    // longer compile (apps/server/test/scaffold.test.ts reads turbo's plan of it).
    build: {
      what: "the generated types",
      turbo: ["run", "generate", "--filter=@animal-store/api-types"],
    },
    program: { cwd: "apps/server", file: "scripts/scaffold.mjs" },
  },
  migration: {
    usage: `Usage: pnpm migration add-property <Schema> <property>

Writes the migration of the column of an optional request-body property (SQLite and
PostgreSQL). See README.md.`,
    positionals: true,
    parse: async (args) =>
      args.length === 3 && args[0] === "add-property"
        ? undefined
        : "expects add-property <Schema> <property>",
    build: {
      what: "the server",
      turbo: ["run", "build", "bundle", "--filter=@animal-store/server..."],
    },
    program: { cwd: "apps/server", file: "dist/migration-cli.js" },
  },
  "drill:spec-edits": {
    usage: `Usage: pnpm drill:spec-edits [kind ...] [--keep] [--list]

Each kind of everyday spec edit on a scratch copy, then the whole pnpm test (slow); --list prints
the kinds as JSON, --keep keeps the copies. See apps/contract-tests/README.md.`,
    options: { keep: { type: "boolean" }, list: { type: "boolean" } },
    positionals: true,
    build: {
      what: "the contract tests",
      turbo: ["run", "build", "--filter=@animal-store/contract-tests..."],
    },
    program: { cwd: "apps/contract-tests", file: "dist/spec-edit-drill-cli.js" },
    longRunning: true,
  },
  "drill:own-contract": {
    usage: `Usage: pnpm drill:own-contract [--keep | --discard]

Follows README.md "Bring your own contract" on a scratch copy of the committed repository, with
the foreign fixture contract (harbour-ferries.yaml) as a team's own: replace, delete, generate,
scaffold --prune, typecheck, build, then the server, both mocks, the docs and a typed client
call. Every process it starts is stopped. --keep keeps the copy, --discard removes it even when a
step fails. See apps/contract-tests/README.md.`,
    options: { keep: { type: "boolean" }, discard: { type: "boolean" } },
    build: {
      what: "the contract tests",
      turbo: ["run", "build", "--filter=@animal-store/contract-tests..."],
    },
    program: { cwd: "apps/contract-tests", file: "dist/own-contract-drill-cli.js" },
  },
  changeset: {
    usage: `Usage: pnpm changeset [add|version|publish|status|pre|tag] [options]

Changesets' own CLI (options: --empty, --open, --since <ref>, --verbose, --output <file>,
--snapshot, --tag <tag>, --otp <code>, --no-git-tag, --ignore <pkg>).`,
    options: {
      empty: { type: "boolean" },
      open: { type: "boolean" },
      since: { type: "string" },
      verbose: { type: "boolean" },
      output: { type: "string" },
      snapshot: { type: "boolean" },
      tag: { type: "string" },
      otp: { type: "string" },
      "no-git-tag": { type: "boolean" },
      ignore: { type: "string", multiple: true },
    },
    positionals: true,
    tool: { bin: "changeset", args: [] },
  },
  "api-version": {
    usage: `Usage: pnpm api-version [major|minor|patch] [--message TEXT]

Without a bump: shows the pending API changelog entry (per operation, what the bundled contract
changes against the newest released one; the release writes it into api-types' CHANGELOG.md).
With one: bumps the contract's version for the next release of the API types and the client,
then lints, bundles and regenerates. See README.md, "Changing the API".`,
    options: {
      message: { type: "string", short: "m" },
      root: { type: "string" },
      "no-generate": { type: "boolean" },
    },
    positionals: true,
    parse: async (args) => {
      // No bump shows the pending changelog entry; otherwise exactly one kind.
      if (args.length === 0) return undefined;
      const kinds = args.filter((arg) => ["major", "minor", "patch"].includes(arg));
      return kinds.length === 1 ? undefined : "expects one of major, minor, patch, or nothing";
    },
    build: {
      what: "the contract tools",
      turbo: ["run", "build", "--filter=@animal-store/contract-tests^..."],
    },
    program: { cwd: "apps/contract-tests", file: "dist/api-version-cli.js" },
  },
  "version-packages": {
    usage: `Usage: pnpm version-packages

The release workflow's step: changeset version, the lockfile, the bundle and the released copy of
the contract. See packages/api-types/README.md, "Releasing".`,
    steps: [
      ["changeset", "version"],
      ["pnpm", "install", "--lockfile-only"],
      ["turbo", "run", "bundle", errorsOnly],
      ["turbo", "run", "build", "--filter=@animal-store/contract-tests^...", errorsOnly],
      [
        "pnpm",
        "--filter",
        "@animal-store/contract-tests",
        "run",
        "release-contract",
        "--if-unreleased",
      ],
    ],
  },
  release: {
    usage: `Usage: pnpm release

The release workflow's step: builds the API types and the client, stages the client's one-tarball
form (packages/client/.pack/, its publishConfig.directory), then changeset publish.`,
    steps: [
      [
        "turbo",
        "run",
        "build",
        "--filter=./packages/api-types",
        "--filter=./packages/client",
        errorsOnly,
      ],
      ["pnpm", "--filter", "@animal-store/client", "run", "--silent", "tarball", "--stage-only"],
      ["changeset", "publish"],
    ],
  },
};
