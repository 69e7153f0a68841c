// @ts-check
// Where things live in the monorepo, found through the workspace packages rather than guessed.
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const NODE_MODULES = fileURLToPath(new URL("../node_modules/", import.meta.url));

/** The directory of a workspace package this package depends on (its pnpm link, resolved). */
function packageDir(/** @type {string} */ name) {
  return realpathSync(join(NODE_MODULES, name));
}

/** The build script of the docs package, run as pnpm would run it (no restated flags). */
function docsBuildScript(/** @type {string} */ dir) {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return String(manifest.scripts.build);
}

/**
 * @typedef {object} Layout
 * @property {string} root      the repository root (lint problems name files relative to it)
 * @property {string} specDir   openapi/ (watched)
 * @property {string} specPath  openapi/openapi.yaml
 * @property {string} configPath openapi/redocly.yaml (the lint rules)
 * @property {string} distDir   openapi/dist (bundled JSON and YAML)
 * @property {{ name: string, module: string, exportName: string, target: string }[]} generators
 * @property {string} serverDir apps/server
 * @property {string} serverMain apps/server/dist/main.js
 * @property {string} serverDist apps/server/dist (its build: a new one restarts the server)
 * @property {string} engineDist packages/openapi-engine/dist (the engine's build: restarts it too)
 * @property {string} serverPreload modules to load ahead of a server start
 * @property {string} mockMain  apps/mock/src/main.mjs
 * @property {string} mockSrc   apps/mock/src
 * @property {string} mockPreload
 * @property {string} docsDir   apps/docs
 * @property {string} docsBuild its `build` script
 */

/** The real monorepo layout. */
export function repoLayout() {
  const specDir = packageDir("@animal-store/openapi");
  const apiTypes = packageDir("@animal-store/api-types");
  const client = packageDir("@animal-store/client");
  const serverDir = packageDir("@animal-store/server");
  const engineDir = packageDir("@animal-store/openapi-engine");
  const mockDir = packageDir("@animal-store/mock");
  const docsDir = packageDir("@animal-store/docs");
  /** @type {Layout} */
  const layout = {
    root: dirname(specDir),
    specDir,
    specPath: join(specDir, "openapi.yaml"),
    configPath: join(specDir, "redocly.yaml"),
    distDir: join(specDir, "dist"),
    generators: [
      {
        name: "api-types",
        module: join(apiTypes, "scripts/render-types.mjs"),
        exportName: "renderTypes",
        target: join(apiTypes, "src/generated/openapi.ts"),
      },
      {
        name: "client operations",
        module: join(client, "scripts/generate-operations.mjs"),
        exportName: "renderOperations",
        target: join(client, "src/generated/operations.ts"),
      },
    ],
    serverDir,
    serverMain: join(serverDir, "dist/main.js"),
    serverDist: join(serverDir, "dist"),
    engineDist: join(engineDir, "dist"),
    // The composition root: it imports the engine and the application's modules.
    serverPreload: join(serverDir, "dist/animal-store.js"),
    mockMain: join(mockDir, "src/main.mjs"),
    mockSrc: join(mockDir, "src"),
    mockPreload: join(mockDir, "src/mock-server.mjs"),
    docsDir,
    docsBuild: docsBuildScript(docsDir),
  };
  return layout;
}
