// @ts-check
// Runs Prism's HTTP mock in this process (the same server `prism mock` starts), so there is no
// child process to orphan and no temporary spec file: the versioned spec is handed over in memory.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createLogger } from "@stoplight/prism-core";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { createServer } from "@stoplight/prism-http-server";
import { mockSpecFrom } from "./mock-spec.mjs";
import { prismLogDestination } from "./prism-log.mjs";

/** The bundled contract (`pnpm bundle` writes it). */
export const BUNDLED_SPEC_PATH = createRequire(import.meta.url).resolve(
  "@animal-store/openapi/openapi.json",
);

/**
 * @typedef {object} MockOptions
 * @property {string} host
 * @property {number} port 0 picks a free port
 * @property {boolean} dynamic generate data from the schemas instead of serving the named examples
 * @property {string} [seed] makes dynamic data repeatable
 * @property {keyof typeof import("./prism-log.mjs").LOG_LEVELS} logLevel Prism log lines below this level are not shown
 * @property {string} [specPath] defaults to the bundled contract
 * @property {NodeJS.WritableStream} [logOut] where Prism's log lines go (stderr)
 */

/**
 * @typedef {object} RunningMock
 * @property {string} origin e.g. http://127.0.0.1:4010
 * @property {string} url the API's base URL, e.g. http://127.0.0.1:4010/v1 (a client's baseUrl)
 * @property {() => Promise<void>} close
 */

/** Starts Prism on the bundled spec with its paths under the servers' base path (`/v1`). */
export async function startMock(/** @type {MockOptions} */ options) {
  const specPath = options.specPath ?? BUNDLED_SPEC_PATH;
  const bundled = JSON.parse(await readFile(specPath, "utf8"));
  const { spec, basePath } = mockSpecFrom(bundled);
  const operations = await getHttpOperationsFromSpec(spec);
  const logger = createLogger(
    "MOCK",
    { level: options.logLevel },
    prismLogDestination(options.logOut),
  );
  const server = createServer(operations, {
    cors: true,
    components: { logger: logger.child({ name: "HTTP SERVER" }) },
    // The settings `prism mock` uses: requests are validated and security is enforced (no
    // bearer credential → the spec's 401), responses are checked against the spec.
    config: {
      isProxy: false,
      validateRequest: true,
      validateResponse: true,
      checkSecurity: true,
      errors: false,
      upstreamProxy: undefined,
      mock: {
        dynamic: options.dynamic,
        ignoreExamples: false,
        ...(options.seed ? { seed: options.seed } : {}),
      },
    },
  });
  const origin = await server.listen(options.port, options.host);
  return {
    origin,
    url: `${origin}${basePath}`,
    close: () => server.close(),
  };
}
