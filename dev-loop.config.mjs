// @ts-check
// What `pnpm dev` runs for the Animal Store. The dev loop (packages/dev-loop) imports no
// application: the root `dev` script hands it this file (`--config`), which names the contract it
// watches and the generators it runs on each save, the services it restarts (where each lives,
// what it preloads, which builds restart it, and the address each service's own configuration
// gives it) and the docs page it rebuilds.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));
const at = (/** @type {string} */ path) => fileURLToPath(new URL(path, import.meta.url));

/** The contract, its lint rules, its bundle and the generators run on each save. */
export const spec = {
  root,
  specDir: at("openapi"),
  specPath: at("openapi/openapi.yaml"),
  configPath: at("openapi/redocly.yaml"),
  distDir: at("openapi/dist"),
  generators: [
    {
      name: "api-types",
      module: at("packages/api-types/scripts/render-types.mjs"),
      exportName: "renderTypes",
      target: at("packages/api-types/src/generated/openapi.ts"),
    },
    {
      name: "client operations",
      module: at("packages/client/scripts/generate-operations.mjs"),
      exportName: "renderOperations",
      target: at("packages/client/src/generated/operations.ts"),
    },
  ],
};

/**
 * The services, on `env`: each one's address is what its own configuration makes of `env` (the
 * server's PORT and HOST, the mock's MOCK_PORT and MOCK_HOST), so the loop knows where to look.
 * @param {Record<string, string | undefined>} env
 */
export async function services(env) {
  const { configFrom } = await import("./apps/server/dist/app-config.js");
  const { parseMockCommand } = await import("./apps/mock/src/options.mjs");
  const server = configFrom(env);
  const mock = parseMockCommand([], env);
  if (mock.kind !== "run")
    throw new Error(mock.kind === "error" ? mock.message : "bad mock settings");
  return [
    {
      name: "server",
      main: at("apps/server/dist/main.js"),
      cwd: at("apps/server"),
      address: { host: server.host, port: server.port },
      // The composition root: it imports the engine and the application's modules.
      preload: [at("apps/server/dist/animal-store.js")],
      // A new build of the server or of the engine restarts it.
      code: [at("apps/server/dist"), at("packages/openapi-engine/dist")],
      // Restarts hand the listening socket from the old server to the new one: none refused.
      handoff: true,
    },
    {
      name: "mock",
      main: at("apps/mock/src/main.mjs"),
      cwd: at("openapi"),
      address: { host: mock.options.host, port: mock.options.port },
      preload: [at("apps/mock/src/mock-server.mjs")],
      code: [at("apps/mock/src")],
    },
  ];
}

/** The docs page, rebuilt in the background by its package's own `build` script. */
export const docs = {
  dir: at("apps/docs"),
  script: String(JSON.parse(readFileSync(at("apps/docs/package.json"), "utf8")).scripts.build),
};
