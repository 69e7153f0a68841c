// @ts-check
// Command line and environment of the mock launcher: flags win over MOCK_* variables.
import { parseArgs } from "node:util";
import { LOG_LEVELS } from "./prism-log.mjs";

/** How to call the launcher. */
export const USAGE = `Usage: pnpm mock [--stateful] [options]

Both modes:
  --host <addr>          address to listen on (env MOCK_HOST, default 127.0.0.1)
  --port <n>             port to listen on, 0 for any free port (env MOCK_PORT, default 4010)
  --spec <file>          serve another bundled spec (env MOCK_SPEC, default the bundled contract)
  --log-level <lvl>      ${Object.keys(LOG_LEVELS).join(", ")} (env MOCK_LOG_LEVEL, default warn)

Prism (the default): the spec's named examples, Prefer headers
  --dynamic              generate data from the schemas instead (env MOCK_DYNAMIC=1)
  --seed <text>          make generated data repeatable (env MOCK_SEED)

--stateful (env MOCK_STATEFUL=1): the server's own engine and handlers over data in memory,
seeded from the spec's examples; POST /__mock/reset puts the seed back. Any other contract
(--spec) gets the any-contract application on the same engine: resources inferred from its paths
  --seed <n>             n more items per resource, synthesized from the schemas, to page
                         through (env MOCK_SEED_COUNT)
  --any-contract         the any-contract application even on the Animal Store's contract, e.g.
                         once a team's contract has replaced it (env MOCK_ANY_CONTRACT=1)
  --plan <name>          the plan every key is counted on (env MOCK_PLAN, default the spec's
                         x-rate-limit-anonymous-plan)
  --per-minute <n>       a key's own limits, as a custom plan's keys need
  --per-day <n>          (env MOCK_PER_MINUTE, MOCK_PER_DAY)
  --now <date>           pretend the clock starts at this ISO date or date-time, e.g. to see a
                         sunset's 410 (env MOCK_NOW)`;

/**
 * @typedef {import("./start.mjs").MockOptions} MockOptions
 * @typedef {{ kind: "run", options: MockOptions } | { kind: "help" } | { kind: "error", message: string }} ParsedCommand
 */

const TRUE = new Set(["1", "true", "yes", "on"]);

/** @type {import("node:util").ParseArgsConfig["options"]} */
const FLAGS = {
  stateful: { type: "boolean" },
  dynamic: { type: "boolean", short: "d" },
  seed: { type: "string" },
  spec: { type: "string" },
  host: { type: "string" },
  port: { type: "string", short: "p" },
  "log-level": { type: "string" },
  plan: { type: "string" },
  "per-minute": { type: "string" },
  "per-day": { type: "string" },
  now: { type: "string" },
  "any-contract": { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

/** The flags of one mode only, and the variable each also reads. */
const PRISM_ONLY = { dynamic: "MOCK_DYNAMIC" };
const STATEFUL_ONLY = {
  plan: "MOCK_PLAN",
  "per-minute": "MOCK_PER_MINUTE",
  "per-day": "MOCK_PER_DAY",
  now: "MOCK_NOW",
  "any-contract": "MOCK_ANY_CONTRACT",
};

/**
 * A flag's value, else its variable's (empty counts as unset).
 * @param {Record<string, string | boolean | undefined>} flags
 * @param {Record<string, string | undefined>} env
 * @param {string} flag
 * @param {string} variable
 */
function setting(flags, env, flag, variable) {
  const value = flags[flag] ?? env[variable];
  return value === undefined || value === "" ? undefined : value;
}

/**
 * A whole number of at least 1, or an error message naming the flag.
 * @param {string | boolean | undefined} value
 * @param {string} flag
 * @returns {number | string | undefined}
 */
function limit(value, flag) {
  if (value === undefined) return undefined;
  const text = String(value);
  return /^[1-9]\d*$/.test(text) && Number.isSafeInteger(Number(text))
    ? Number(text)
    : `--${flag} must be a whole number of at least 1, not "${text}"`;
}

/**
 * The stateful mode's own settings, or an error message.
 * @param {Record<string, string | boolean | undefined>} flags
 * @param {Record<string, string | undefined>} env
 * @returns {Partial<MockOptions> | string}
 */
function statefulSettings(flags, env) {
  const plan = setting(flags, env, "plan", STATEFUL_ONLY.plan);
  const perMinute = limit(
    setting(flags, env, "per-minute", STATEFUL_ONLY["per-minute"]),
    "per-minute",
  );
  const perDay = limit(setting(flags, env, "per-day", STATEFUL_ONLY["per-day"]), "per-day");
  if (typeof perMinute === "string") return perMinute;
  if (typeof perDay === "string") return perDay;
  // `--seed` is Prism's seed for generated data (text); with --stateful it counts the items to
  // synthesize per resource, read from MOCK_SEED_COUNT (MOCK_SEED stays Prism's).
  const seedText = setting(flags, env, "seed", "MOCK_SEED_COUNT");
  if (seedText !== undefined && !/^\d+$/.test(String(seedText))) {
    return `--seed applies to the Prism mode as text; with --stateful it is a whole number of items to make per resource, not "${seedText}"`;
  }
  const seedCount = seedText === undefined ? undefined : Number(seedText);
  const anyContract =
    Boolean(flags["any-contract"]) || TRUE.has((env.MOCK_ANY_CONTRACT ?? "").toLowerCase());
  const nowText = setting(flags, env, "now", STATEFUL_ONLY.now);
  const now = nowText === undefined ? undefined : Date.parse(String(nowText));
  if (now !== undefined && !Number.isFinite(now)) {
    return `--now must be an ISO date or date-time such as 2031-01-01 or 2031-01-01T12:00:00Z, not "${nowText}"`;
  }
  return {
    ...(plan ? { plan: String(plan) } : {}),
    ...(perMinute ? { perMinute } : {}),
    ...(perDay ? { perDay } : {}),
    ...(now !== undefined ? { now } : {}),
    ...(seedCount ? { seedCount } : {}),
    ...(anyContract ? { anyContract } : {}),
  };
}

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
  const stateful = Boolean(flags.stateful) || TRUE.has((env.MOCK_STATEFUL ?? "").toLowerCase());
  // A flag of the other mode would be silently ignored: say so instead.
  const other = stateful ? PRISM_ONLY : STATEFUL_ONLY;
  const misplaced = Object.keys(other).find((flag) => flags[flag] !== undefined);
  if (misplaced) {
    const mode = stateful ? "the Prism mode (without --stateful)" : "--stateful";
    return { kind: "error", message: `--${misplaced} applies to ${mode} only` };
  }
  const specPath = String(flags.spec ?? (env.MOCK_SPEC || ""));
  const common = {
    host: String(flags.host ?? (env.MOCK_HOST || "127.0.0.1")),
    port,
    logLevel: /** @type {MockOptions["logLevel"]} */ (logLevel),
    ...(specPath ? { specPath } : {}),
  };
  if (stateful) {
    const settings = statefulSettings(flags, env);
    if (typeof settings === "string") return { kind: "error", message: settings };
    return { kind: "run", options: { ...common, stateful: true, dynamic: false, ...settings } };
  }
  const seed = String(flags.seed ?? (env.MOCK_SEED || ""));
  return {
    kind: "run",
    options: {
      ...common,
      stateful: false,
      dynamic: Boolean(flags.dynamic) || TRUE.has((env.MOCK_DYNAMIC ?? "").toLowerCase()),
      ...(seed ? { seed } : {}),
    },
  };
}
