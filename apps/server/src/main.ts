/**
 * `pnpm start`: starts the server from the environment, creates a development key on the first
 * start of an empty development database, and shuts down gracefully on SIGTERM/SIGINT.
 */
import { issueApiKey } from "./api-keys.js";
import { type AppConfig, ConfigError, loadConfig } from "./config.js";
import { type RunningServer, startServer } from "./server.js";
import { openStore } from "./store/index.js";

/** Creates the development key before the server listens, so the database is final by then. */
async function createDevelopmentKey(config: AppConfig): Promise<string | null> {
  if (config.nodeEnv !== "development") return null;
  const store = await openStore(config.database);
  try {
    if ((await store.countApiKeys()) > 0) return null;
    return (await issueApiKey(store, { plan: "free", name: "development" })).key;
  } finally {
    await store.close();
  }
}

function printDevelopmentKey(key: string, url: string): void {
  // Shown once, on stderr so stdout stays pure JSON logs; only the hash is stored.
  process.stderr.write(
    [
      "",
      "Created a development API key (free plan). It is shown only this once:",
      "",
      `  ${key}`,
      "",
      "Try it:",
      `  curl -H "Authorization: Bearer ${key}" ${url}/v1/pets`,
      "",
      "",
    ].join("\n"),
  );
}

async function main(): Promise<void> {
  let server: RunningServer;
  let developmentKey: string | null;
  try {
    developmentKey = await createDevelopmentKey(loadConfig(process.env));
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
