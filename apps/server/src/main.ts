/**
 * `pnpm start`: starts the server from the environment, creates a development key on the first
 * start of an empty development database, and shuts down gracefully on SIGTERM/SIGINT.
 */
import { issueApiKey } from "./api-keys.js";
import { ConfigError } from "./config.js";
import { type RunningServer, startServer } from "./server.js";

async function createDevelopmentKey(server: RunningServer): Promise<void> {
  if (server.config.nodeEnv !== "development" || (await server.store.countApiKeys()) > 0) return;
  const { key } = await issueApiKey(server.store, { plan: "free", name: "development" });
  // Shown once, on stderr so stdout stays pure JSON logs; only the hash is stored.
  process.stderr.write(
    [
      "",
      "Created a development API key (free plan). It is shown only this once:",
      "",
      `  ${key}`,
      "",
      "Try it:",
      `  curl -H "Authorization: Bearer ${key}" ${server.url}/v1/pets`,
      "",
      "",
    ].join("\n"),
  );
}

async function main(): Promise<void> {
  let server: RunningServer;
  try {
    server = await startServer(process.env);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      `animal-store: ${err instanceof ConfigError ? "bad configuration" : "cannot start"}: ${message}\n`,
    );
    process.exit(1);
  }
  await createDevelopmentKey(server);
  const shutdown = (signal: string) => {
    server.logger.info({ signal }, "shutting down");
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}

await main();
