// A scratch copy of the contract (openapi.yaml) that tests may break at will, linted and bundled
// with the real redocly.yaml (its plugin is found relative to it).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { findConfig, loadConfig } from "../src/config.mjs";

// biome-ignore lint/suspicious/noExplicitAny: the spec is edited dynamically and every access is asserted.
export type Json = any;

/** The repository's own config (the root's dev-loop.config.mjs): the loop runs what it says. */
export const configPath = findConfig(undefined, new URL("..", import.meta.url).pathname);
const config = await loadConfig(configPath);
const entries = await config.services({ NODE_ENV: "development" });
const service = (name: string) => {
  const entry = entries.find((s) => s.name === name);
  if (!entry) throw new Error(`the repository's config has no ${name} service`);
  return entry;
};

/** Where the repository's contract, generators, server, mock and docs are (from its config). */
export const layout = {
  ...config.spec,
  root: config.spec.root as string,
  serverDir: service("server").cwd,
  serverMain: service("server").main,
  serverPreload: service("server").preload?.[0] as string,
  mockMain: service("mock").main,
  mockPreload: service("mock").preload?.[0] as string,
};

/** A temporary spec directory with its own dist/ and generated files. */
export function scratchSpec() {
  const dir = mkdtempSync(join(tmpdir(), "animal-store-dev-loop-"));
  const specDir = join(dir, "openapi");
  mkdirSync(specDir);
  copyFileSync(layout.specPath, join(specDir, "openapi.yaml"));
  const specPath = join(specDir, "openapi.yaml");
  return {
    dir,
    root: dir,
    specDir,
    specPath,
    configPath: layout.configPath,
    distDir: join(specDir, "dist"),
    generators: layout.generators.map((g) => ({
      ...g,
      target: join(dir, "generated", `${g.name}.ts`),
    })),
    /** Rewrites the spec with `change` applied to its parsed form. */
    edit(change: (spec: Json) => void) {
      const spec = parse(readFileSync(specPath, "utf8"));
      change(spec);
      writeFileSync(specPath, stringify(spec));
    },
    /** Puts the real spec back. */
    reset: () => copyFileSync(layout.specPath, specPath),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
