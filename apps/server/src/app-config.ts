/**
 * The names the Animal Store gives everything the engine leaves unnamed, and its configuration
 * from the environment. Apart from animal-store.ts so the keys CLI compiles without the handler
 * table (tsconfig.keys.json): keys never depend on the handlers being complete.
 */
import { fileURLToPath } from "node:url";
import { type AppConfig, type ApplicationNames, loadConfig } from "@animal-store/openapi-engine";

/** The Animal Store's names and defaults. */
export const animalStoreNames: ApplicationNames = {
  service: "animal-store",
  databaseUrl: "file:./data/animal-store.db",
  // apps/docs builds the page; from dist/, dist-keys/ or src/ this is apps/docs/dist/index.html.
  docsHtmlPath: fileURLToPath(new URL("../../docs/dist/index.html", import.meta.url)),
  docsBuildHint: "pnpm run docs",
  redisKeyPrefix: "animal-store:rl:",
};

/** The Animal Store's configuration: `env` validated, its own defaults where `env` is silent. */
export function configFrom(env: Record<string, string | undefined>): AppConfig {
  return loadConfig(env, animalStoreNames);
}
