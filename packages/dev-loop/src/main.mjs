#!/usr/bin/env node
// @ts-check
// `pnpm dev`: the edit-regenerate loop (see dev-loop.mjs) over what the application's config says
// to run (config.mjs: the repository root's dev-loop.config.mjs).
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { findConfig, loadConfig } from "./config.mjs";
import { startDevLoop } from "./dev-loop.mjs";

const USAGE = `Usage: pnpm dev [--config <file>] [--no-<service>] [--no-docs]

Watches the contract the config names: on every save, lints, bundles and regenerates in-process;
restarts each service the config lists (at the address its own configuration gives it); rebuilds
the docs. --no-<service> leaves a service out (the repository's: --no-server, --no-mock). A spec
that fails lint is reported and the last good build keeps running. Ctrl-C (or SIGTERM, SIGHUP)
stops it all. Service logs are shown readable; NODE_ENV=production or DEV_LOOP_JSON_LOGS=1 keeps
them JSON. The config is --config, else the nearest dev-loop.config.mjs from the working
directory up.`;

const args = process.argv.slice(2).filter((arg) => arg !== "--");
let flags;
try {
  // The services' names come from the config, so their --no-<name> flags are checked once it is
  // read; here every other flag is.
  flags = parseArgs({
    args,
    strict: false,
    options: {
      config: { type: "string" },
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

const env = { ...process.env, NODE_ENV: process.env.NODE_ENV || "development" };
const config = await loadConfig(findConfig(/** @type {string | undefined} */ (flags.config)));
const entries = await config.services(env);
const known = new Set(["--no-docs", "--help", "-h", ...entries.map((s) => `--no-${s.name}`)]);
const unknown = args.filter(
  (arg, i) =>
    !known.has(arg) &&
    arg !== "--config" &&
    args[i - 1] !== "--config" &&
    !arg.startsWith("--config="),
);
if (unknown.length > 0) {
  console.error(`Unknown option ${unknown[0]}\n\n${USAGE}`);
  process.exit(2);
}

/** Where a service listening on `host` can be reached from here. */
const reachable = (/** @type {string} */ host) =>
  host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;

// DEV_LOOP_STANDBY=0 restarts services cold (to measure what the warm standbys save).
const standby = process.env.DEV_LOOP_STANDBY !== "0";
/** @type {import("./supervisor.mjs").ServiceSpec[]} */
const services = entries
  .filter((entry) => !args.includes(`--no-${entry.name}`))
  .map((entry) => ({
    ...entry,
    env,
    address: { host: reachable(entry.address.host), port: entry.address.port },
    standby,
  }));

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
  spec: config.spec,
  services,
  docs: flags["no-docs"] ? null : config.docs,
  env,
});
await started;
const watched = relative(config.spec.root ?? process.cwd(), config.spec.specDir) || ".";
console.log(`[dev] watching ${watched}/ (Ctrl-C to stop)`);
