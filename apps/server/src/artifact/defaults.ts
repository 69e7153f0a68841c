/**
 * The artifact's defaults (`pnpm artifact <dir>`, then `node <dir>`): production mode, and every
 * path the server reads relative to the artifact's own folder, never to the working directory,
 * so it starts the same from anywhere (a service manager, a container, a shell elsewhere).
 * Only what the environment leaves unset is filled in.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The artifact's folder: dist/artifact/ is two levels below it (and apps/server in the repo). */
export const artifactRoot = fileURLToPath(new URL("../../", import.meta.url));

/** Fills in `env`'s unset production defaults; returns what it set, for the start-up line. */
export function applyArtifactDefaults(
  env: Record<string, string | undefined>,
  root: string = artifactRoot,
): Record<string, string> {
  const defaults: Record<string, string> = {
    NODE_ENV: "production",
    DATABASE_URL: `file:${root}data/animal-store.db`,
  };
  // The docs page the artifact ships (docs/index.html); without it the engine's own default.
  const docs = `${root}docs/index.html`;
  if (existsSync(docs)) defaults.DOCS_HTML_PATH = docs;
  const applied: Record<string, string> = {};
  for (const [name, value] of Object.entries(defaults)) {
    if (env[name]?.trim()) continue;
    env[name] = value;
    applied[name] = value;
  }
  return applied;
}
