/**
 * `pnpm start`: starts the server from the environment, creates a development key on the first
 * start of an empty development database, and shuts down gracefully on SIGTERM/SIGINT.
 */
import {
  basePathOf,
  loadBundledSpec,
  rateLimitPolicy,
  specOperations,
} from "@animal-store/openapi";
import { type AppConfig, ConfigError, issueApiKey } from "@animal-store/openapi-engine";
import { configFrom, type RunningServer, startServer } from "./animal-store.js";
import { openStore } from "./store/index.js";

/**
 * Creates the development key before the server listens, so the database is final by then. It is
 * on the plan keyless callers are counted on (info.x-rate-limit-anonymous-plan): the smallest.
 */
async function createDevelopmentKey(
  config: AppConfig,
): Promise<{ key: string; plan: string } | null> {
  if (config.nodeEnv !== "development") return null;
  const policy = rateLimitPolicy(loadBundledSpec().spec);
  const store = await openStore(config.database);
  try {
    if ((await store.countApiKeys()) > 0) return null;
    const plan = policy.anonymousPlan;
    return { key: (await issueApiKey(store, policy, { plan, name: "development" })).key, plan };
  } finally {
    await store.close();
  }
}

function printDevelopmentKey({ key, plan }: { key: string; plan: string }, url: string): void {
  // Shown once, on stderr so stdout stays pure JSON logs; only the hash is stored.
  process.stderr.write(
    [
      "",
      `Created a development API key (${plan} plan). It is shown only this once:`,
      "",
      `  ${key}`,
      "",
      "Try it:",
      `  curl -H "Authorization: Bearer ${key}" ${url}${firstListUrl()}`,
      "",
      "",
    ].join("\n"),
  );
}

/** The path of the contract's first GET operation without path parameters, for the hint. */
function firstListUrl(): string {
  const { spec } = loadBundledSpec();
  const base = basePathOf(spec);
  const list = specOperations(spec).find((op) => op.method === "GET" && !op.path.includes("{"));
  return `${base}${list?.path ?? ""}`;
}

async function main(): Promise<void> {
  let server: RunningServer;
  let developmentKey: { key: string; plan: string } | null;
  try {
    developmentKey = await createDevelopmentKey(configFrom(process.env));
    server = await startServer(process.env);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const what = err instanceof ConfigError ? "bad configuration" : "cannot start";
    process.stderr.write(`animal-store: ${what}: ${message}\n`);
    process.exit(1);
  }
  const shutdown = (signal: string) => {
    server.logger.info({ signal }, "shutting down");
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
  if (developmentKey) printDevelopmentKey(developmentKey, server.url);
}

await main();
