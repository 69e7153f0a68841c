/**
 * `pnpm start`: starts the server from the environment, creates a development key on the first
 * start of an empty development database, and shuts down gracefully on SIGTERM/SIGINT/SIGHUP
 * (draining, then exit 0).
 */
import { specOperations } from "@animal-store/openapi";
import {
  type AppConfig,
  ConfigError,
  type Contract,
  issueApiKey,
  StoreUnavailableError,
} from "@animal-store/openapi-engine";
import { type RunningServer, startServer } from "./animal-store.js";
import type { Store } from "./store/index.js";

/** The development key, when this start created one. */
type DevelopmentKey = { key: string; plan: string };

/**
 * Creates the development key on the server's own store before it listens, so the database is
 * final by then. It is on the plan keyless callers are counted on
 * (info.x-rate-limit-anonymous-plan): the smallest.
 */
async function createDevelopmentKey(opened: {
  store: Store;
  contract: Contract;
  config: AppConfig;
}): Promise<DevelopmentKey | null> {
  const { store, contract, config } = opened;
  if (config.nodeEnv !== "development") return null;
  let keys: number;
  try {
    keys = await store.countApiKeys();
  } catch (err) {
    if (!(err instanceof StoreUnavailableError)) throw err;
    // The server still starts (503 until the database answers, as in production); the key waits.
    process.stderr.write(
      "animal-store: the database is not reachable yet, so no development key was created; the server starts and answers 503 until it is (the log says why); then create a key with `pnpm keys create`\n",
    );
    return null;
  }
  if (keys > 0) return null;
  const policy = contract.rateLimit;
  const plan = policy.anonymousPlan;
  return { key: (await issueApiKey(store, policy, { plan, name: "development" })).key, plan };
}

function printDevelopmentKey({ key, plan }: DevelopmentKey, url: string, contract: Contract): void {
  // Shown once, on stderr so stdout stays pure JSON logs; only the hash is stored.
  process.stderr.write(
    [
      "",
      `Created a development API key (${plan} plan). It is shown only this once:`,
      "",
      `  ${key}`,
      "",
      "Try it:",
      `  curl -H "Authorization: Bearer ${key}" ${url}${firstListUrl(contract)}`,
      "",
      "",
    ].join("\n"),
  );
}

/**
 * The path of the contract's first GET operation without path parameters, for the hint, under the
 * first server's base path (a contract may have several).
 */
function firstListUrl(contract: Contract): string {
  const base = contract.basePath;
  const list = specOperations(contract.spec).find(
    (op) => op.method === "GET" && !op.path.includes("{"),
  );
  return `${base}${list?.path ?? ""}`;
}

async function main(): Promise<void> {
  let server: RunningServer | undefined;
  let developmentKey: DevelopmentKey | null = null;
  let stopping = false;
  let pendingSignal: string | undefined;
  const shutdown = (signal: string) => {
    // Ctrl-C reaches the server twice (the terminal signals the whole process group, and pnpm
    // forwards it too): the second must not kill a server that is draining.
    if (stopping) return;
    if (!server) {
      // A signal during start-up is kept, not lost: Node's default would kill the process mid-way.
      pendingSignal ??= signal;
      return;
    }
    stopping = true;
    server.logger.info({ signal }, "shutting down");
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // Installed before the server listens: a signal sent as soon as it answers finds them.
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(signal, () => shutdown(signal));
  }
  try {
    server = await startServer(process.env, {
      beforeListen: async (opened) => {
        developmentKey = await createDevelopmentKey(opened);
      },
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const what = err instanceof ConfigError ? "bad configuration" : "cannot start";
    process.stderr.write(`animal-store: ${what}: ${message}\n`);
    process.exit(1);
  }
  if (developmentKey) printDevelopmentKey(developmentKey, server.url, server.contract);
  if (pendingSignal) shutdown(pendingSignal);
}

await main();
