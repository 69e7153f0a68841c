#!/usr/bin/env node
// @ts-check
// `pnpm dev`: the edit-regenerate loop over the real monorepo (see dev-loop.mjs).
import { parseArgs } from "node:util";
import { parseMockCommand } from "@animal-store/mock/src/options.mjs";
import { configFrom } from "@animal-store/server";
import { startDevLoop } from "./dev-loop.mjs";
import { repoLayout } from "./layout.mjs";

const USAGE = `Usage: pnpm dev [--no-server] [--no-mock] [--no-docs]

Watches openapi/: on every save, lints, bundles and regenerates the types in-process; restarts
the server (PORT, default from the server's config) and the mock (MOCK_PORT); rebuilds the docs.
A spec that fails lint is reported and the last good build keeps running. Ctrl-C (or SIGTERM,
SIGHUP) stops it all. Service logs are shown readable; NODE_ENV=production or
DEV_LOOP_JSON_LOGS=1 keeps them JSON.

The mock reads the variables of pnpm mock: MOCK_STATEFUL=1 pnpm dev runs the stateful mock (the
server's answers over data in memory) instead of Prism; MOCK_PLAN, MOCK_SEED and the others in
apps/mock/README.md apply too.`;

let flags;
try {
  flags = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== "--"),
    options: {
      "no-server": { type: "boolean" },
      "no-mock": { type: "boolean" },
      "no-docs": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  }).values;
} catch (error) {
  console.error(`${error instanceof Error ? error.message : error}\n\n${USAGE}`);
  process.exit(2);
}
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}

/** Where a service listening on `host` can be reached from here. */
const reachable = (/** @type {string} */ host) =>
  host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;

const env = { ...process.env, NODE_ENV: process.env.NODE_ENV || "development" };
// DEV_LOOP_STANDBY=0 restarts services cold (to measure what the warm standbys save).
const standby = process.env.DEV_LOOP_STANDBY !== "0";
const layout = repoLayout();
/** @type {import("./supervisor.mjs").ServiceSpec[]} */
const services = [];
if (!flags["no-server"]) {
  // The server's own config decides its address, so the loop knows where to look for it.
  const config = configFrom(env);
  services.push({
    name: "server",
    main: layout.serverMain,
    cwd: layout.serverDir,
    env,
    address: { host: reachable(config.host), port: config.port },
    preload: [layout.serverPreload],
    code: [layout.serverDist, layout.engineDist],
    standby,
    // Restarts hand the listening socket from the old server to the new one: none refused.
    handoff: true,
  });
}
if (!flags["no-mock"]) {
  const mock = parseMockCommand([], env);
  if (mock.kind !== "run")
    throw new Error(mock.kind === "error" ? mock.message : "bad mock settings");
  services.push({
    name: "mock",
    main: layout.mockMain,
    cwd: layout.specDir,
    env,
    address: { host: reachable(mock.options.host), port: mock.options.port },
    preload: [layout.mockPreload],
    code: [layout.mockSrc],
    standby,
  });
}

// Ctrl-C reaches every process of the group (and pnpm forwards it again): the first signal
// stops the services and waits for them, later ones are ignored, and the loop exits 0 once
// nothing of it is left.
let stopping = false;
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`[dev] ${signal}: stopping`);
    started
      .then((loop) => loop.stop())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}

const started = startDevLoop({
  spec: layout,
  services,
  docs: flags["no-docs"] ? null : { dir: layout.docsDir, script: layout.docsBuild },
  env,
});
await started;
console.log("[dev] watching openapi/ (Ctrl-C to stop)");
