/**
 * The build the browser suites open: `dist/` as `pnpm --filter @animal-store/web build` wrote it
 * (turbo builds it before the tests), or, with a planted client fault, a variant built here.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { clientIgnoresRetryAfter, plantedFault } from "./planted-faults.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The built app as it ships. */
export const DIST = join(ROOT, "dist");

/** The directory of the build to test; builds the faulty variant when one is planted. */
export async function builtApp(): Promise<string> {
  if (plantedFault() === "client-ignores-retry-after") {
    const outDir = mkdtempSync(join(tmpdir(), "web-fault-"));
    await build({
      root: ROOT,
      configFile: join(ROOT, "vite.config.ts"),
      logLevel: "silent",
      plugins: [clientIgnoresRetryAfter()],
      build: { outDir, emptyOutDir: true },
    });
    return outDir;
  }
  if (!existsSync(join(DIST, "index.html"))) {
    throw new Error(`${DIST} has no build: run \`pnpm --filter @animal-store/web build\` first`);
  }
  return DIST;
}
