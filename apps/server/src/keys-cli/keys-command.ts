/**
 * `pnpm keys`: manage API keys in the database the server uses (same environment, same config).
 * The command runs on injected streams and environment so tests can run it in-process;
 * keys-cli.ts is the executable.
 *   create --plan <plan> --name <name> [--per-minute N --per-day N]   prints the key alone on stdout
 *   list [--json]                                                       one key per line, no secrets
 *   revoke <id>                                                         stops the key (within the cache TTL)
 *   usage [id] [--json]                                                 this minute's and today's counts vs limits
 *   backup <file>                                                       an online copy of the SQLite database
 * Each names the database it acts on, on stderr; --create-database lets it create a missing file.
 */
import { parseArgs } from "node:util";
import { loadBundledSpec, type RateLimitPolicy, rateLimitPolicy } from "@animal-store/openapi";
import { type ApiKeyRecord, issueApiKey } from "@animal-store/openapi-engine";
import { configFrom } from "../app-config.js";
import { openStore, type Store } from "../store/index.js";
import { backup } from "./backup-command.js";
import { describeDatabase, missingDatabase } from "./database.js";
import { usage } from "./usage-command.js";

// The plans are the contract's (info.x-rate-limit-plans).
const policy: RateLimitPolicy = rateLimitPolicy(loadBundledSpec().spec);
const customPlans = policy.planNames.filter((name) => policy.plans[name]?.custom);
/** "a" or "an" before a plan's name, by its first letter ("an enterprise key"). */
const article = (word: string) => (/^[aeiou]/i.test(word) ? "an" : "a");

const USAGE = `usage:
  keys create --plan <${policy.planNames.join("|")}> --name <name> [--per-minute <n>] [--per-day <n>]
      (${customPlans.length > 0 ? `${article(customPlans[0] ?? "")} ${customPlans.join(" or ")} key needs both limits` : "limits are optional"})
  keys list [--json]
  keys revoke <id>
  keys usage [<id>] [--json]   (counts from Redis with REDIS_URL, else from the running
      server's metrics listener, METRICS_HOST:METRICS_PORT: that instance's counts alone)
  keys backup <file>           (SQLite: a consistent copy while the server runs, VACUUM INTO)
  keys help | -h | --help

Each command names the database it acts on (DATABASE_URL, as the server reads it) on stderr.
A file: database that does not exist is an error unless --create-database is given.`;

class UsageError extends Error {}

/** Where the command reads its environment and writes its output. */
export interface KeysCommandIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

function wholeNumber(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`${flag} must be a whole number (got "${raw}")`);
  return Number(raw);
}

async function create(store: Store, args: string[], io: KeysCommandIo): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      plan: { type: "string" },
      name: { type: "string" },
      "per-minute": { type: "string" },
      "per-day": { type: "string" },
    },
  });
  if (!values.plan || !Object.hasOwn(policy.plans, values.plan)) {
    throw new UsageError(`--plan must be one of ${policy.planNames.join(", ")}`);
  }
  if (!values.name) throw new UsageError("--name is required");
  const { key, record } = await issueApiKey(store, policy, {
    plan: values.plan,
    name: values.name,
    perMinute: wholeNumber("--per-minute", values["per-minute"]),
    perDay: wholeNumber("--per-day", values["per-day"]),
  });
  // The key alone on stdout, so `KEY=$(pnpm -s keys create ...)` captures it; the rest on stderr.
  io.stdout.write(`${key}\n`);
  io.stderr.write(
    `created ${record.id} (${record.plan}, "${record.name}"); store the key now, it is not shown again\n`,
  );
}

function limits(key: ApiKeyRecord): string {
  return key.perMinute === null && key.perDay === null
    ? "plan default"
    : `${key.perMinute ?? "plan"}/min ${key.perDay ?? "plan"}/day`;
}

async function list(store: Store, args: string[], io: KeysCommandIo): Promise<void> {
  const { values } = parseArgs({ args, options: { json: { type: "boolean" } } });
  const keys = await store.listApiKeys();
  if (values.json) {
    io.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
    return;
  }
  const rows = [["ID", "NAME", "PLAN", "LIMITS", "CREATED", "REVOKED"]];
  for (const key of keys) {
    rows.push([key.id, key.name, key.plan, limits(key), key.createdAt, key.revokedAt ?? "-"]);
  }
  const widths = rows[0]?.map((_, column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  );
  for (const row of rows) {
    io.stdout.write(
      `${row
        .map((cell, i) => cell.padEnd(widths?.[i] ?? 0))
        .join("  ")
        .trimEnd()}\n`,
    );
  }
}

async function revoke(store: Store, args: string[], io: KeysCommandIo): Promise<void> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const id = positionals[0];
  if (!id || positionals.length > 1) throw new UsageError("revoke needs exactly one key id");
  const key = await store.revokeApiKey(id, new Date().toISOString());
  if (!key) throw new Error(`no key with id ${id}`);
  io.stdout.write(`revoked ${key.id} at ${key.revokedAt}\n`);
}

const COMMANDS: Record<string, (store: Store, args: string[], io: KeysCommandIo) => Promise<void>> =
  {
    create,
    list,
    revoke,
    backup: (_store, args, io) =>
      backup(args, io, {
        config: configFrom(io.env),
        usageError: (message) => new UsageError(message),
      }),
    usage: (store, args, io) =>
      usage(store, args, io, {
        config: configFrom(io.env),
        policy,
        usageError: (message) => new UsageError(message),
      }),
  };

const HELP = new Set(["help", "-h", "--help"]);

/** Runs one keys command; resolves to the exit code (0 ok, 1 failure, 2 usage). */
export async function runKeysCommand(argv: string[], io: KeysCommandIo): Promise<number> {
  const words = argv[0] === "--" ? argv.slice(1) : argv;
  const create = words.includes("--create-database");
  const [command, ...args] = words.filter((word) => word !== "--create-database");
  if (command !== undefined && HELP.has(command)) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const run = command === undefined ? undefined : COMMANDS[command];
  if (!run) {
    const what = command === undefined ? "a command is needed" : `unknown command "${command}"`;
    io.stderr.write(`keys: ${what} (keys --help for usage)\n`);
    return 2;
  }
  let store: Store | undefined;
  try {
    const { database } = configFrom(io.env);
    io.stderr.write(`keys: database ${describeDatabase(database)}\n`);
    const missing = missingDatabase(database, create);
    if (missing) throw new Error(missing);
    store = await openStore(database);
    await run(store, args, io);
    return 0;
  } catch (err) {
    const usage =
      err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    // A usage error is one line; --help gives the whole usage.
    const hint = usage ? " (keys --help for usage)" : "";
    io.stderr.write(`keys: ${(err as Error).message}${hint}\n`);
    return usage ? 2 : 1;
  } finally {
    await store?.close();
  }
}
