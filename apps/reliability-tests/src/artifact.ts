/**
 * The deployable artifact (`pnpm artifact <dir>`) as an operator gets it: written to a temporary
 * folder outside the repository, then moved to another one (so nothing in it may point back at
 * where it was built), and started from yet another working directory.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

/** An artifact in a folder of its own, and a working directory that is neither it nor the repo. */
export interface DeployedArtifact {
  /** The artifact's folder: `node <dir>` starts the server. */
  dir: string;
  /** The server entry (`dir` itself: Node runs its package.json `main`). */
  entry: string;
  /** The keys CLI. */
  keysCli: string;
  /** An empty working directory elsewhere. */
  cwd: string;
  remove(): void;
}

/** Builds the artifact with the repository's script and moves it out of where it was written. */
export function deployArtifact(): DeployedArtifact {
  const built = mkdtempSync(join(tmpdir(), "animal-store-artifact-build-"));
  const root = mkdtempSync(join(tmpdir(), "animal-store-artifact-"));
  try {
    execFileSync(process.execPath, [`${REPO}apps/server/scripts/artifact.mjs`, `${built}/out`], {
      cwd: REPO,
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 120_000,
    });
    // pnpm's node_modules links are relative: copied as they are, they still resolve.
    cpSync(`${built}/out`, `${root}/animal-store`, { recursive: true, verbatimSymlinks: true });
  } finally {
    rmSync(built, { recursive: true, force: true });
  }
  const dir = `${root}/animal-store`;
  const cwd = `${root}/elsewhere`;
  mkdirSync(cwd);
  return {
    dir,
    entry: dir,
    keysCli: `${dir}/keys.mjs`,
    cwd,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
