// @ts-check
// Command line and environment of the mock launcher: flags win over MOCK_* variables.
import { parseArgs } from "node:util";
import { LOG_LEVELS } from "./prism-log.mjs";

/** How to call the launcher. */
export const USAGE = `Usage: pnpm mock [--dynamic] [--seed <text>] [--host <addr>] [--port <n>] [--log-level <level>]

  --dynamic          generate data from the schemas instead of serving the named examples
                     (env MOCK_DYNAMIC=1)
  --seed <text>      make generated data repeatable (env MOCK_SEED)
  --spec <file>      serve another bundled spec (env MOCK_SPEC, default the bundled contract)
  --host <addr>      address to listen on (env MOCK_HOST, default 127.0.0.1)
  --port <n>         port to listen on, 0 for any free port (env MOCK_PORT, default 4010)
  --log-level <lvl>  ${Object.keys(LOG_LEVELS).join(", ")} (env MOCK_LOG_LEVEL, default warn)`;

/**
 * @typedef {import("./mock-server.mjs").MockOptions} MockOptions
 * @typedef {{ kind: "run", options: MockOptions } | { kind: "help" } | { kind: "error", message: string }} ParsedCommand
 */

const TRUE = new Set(["1", "true", "yes", "on"]);

/** @type {import("node:util").ParseArgsConfig["options"]} */
const FLAGS = {
  dynamic: { type: "boolean", short: "d" },
  seed: { type: "string" },
  spec: { type: "string" },
  host: { type: "string" },
  port: { type: "string", short: "p" },
  "log-level": { type: "string" },
  help: { type: "boolean", short: "h" },
};

/**
 * Reads the launcher's flags and MOCK_* environment; never throws.
 * @param {string[]} argv
 * @param {Record<string, string | undefined>} env
 * @returns {ParsedCommand}
 */
export function parseMockCommand(argv, env) {
  /** @type {Record<string, string | boolean | undefined>} */
  let flags;
  try {
    // pnpm passes a literal `--` before forwarded arguments; it separates nothing here.
    const parsed = parseArgs({ args: argv.filter((arg) => arg !== "--"), options: FLAGS });
    flags = /** @type {Record<string, string | boolean | undefined>} */ (parsed.values);
  } catch (error) {
    return { kind: "error", message: error instanceof Error ? error.message : String(error) };
  }
  if (flags.help) return { kind: "help" };
  const portText = String(flags.port ?? (env.MOCK_PORT || "4010"));
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    return {
      kind: "error",
      message: `The port must be an integer from 0 to 65535, not "${portText}"`,
    };
  }
  const logLevel = String(flags["log-level"] ?? (env.MOCK_LOG_LEVEL || "warn"));
  if (!Object.hasOwn(LOG_LEVELS, logLevel)) {
    const known = Object.keys(LOG_LEVELS).join(", ");
    return { kind: "error", message: `Unknown log level "${logLevel}"; use one of ${known}` };
  }
  const seed = String(flags.seed ?? (env.MOCK_SEED || ""));
  const specPath = String(flags.spec ?? (env.MOCK_SPEC || ""));
  return {
    kind: "run",
    options: {
      host: String(flags.host ?? (env.MOCK_HOST || "127.0.0.1")),
      port,
      dynamic: Boolean(flags.dynamic) || TRUE.has((env.MOCK_DYNAMIC ?? "").toLowerCase()),
      logLevel: /** @type {MockOptions["logLevel"]} */ (logLevel),
      ...(seed ? { seed } : {}),
      ...(specPath ? { specPath } : {}),
    },
  };
}
