// @ts-check
// Runs Prism's HTTP mock in this process (the same server `prism mock` starts), so there is no
// child process to orphan and no temporary spec file: the versioned spec is handed over in memory.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createLogger } from "@stoplight/prism-core";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { createServer } from "@stoplight/prism-http-server";
import { credentialsNote } from "./credentials-note.mjs";
import { mockSpecFrom } from "./mock-spec.mjs";
import { prismLogDestination } from "./prism-log.mjs";

/** The bundled contract (`pnpm bundle` writes it). */
export const BUNDLED_SPEC_PATH = createRequire(import.meta.url).resolve(
  "@animal-store/openapi/openapi.json",
);

/**
 * Starts Prism on the bundled spec with its paths under each of the servers' base paths (`/v1`).
 * @param {import("./start.mjs").MockOptions} options
 * @returns {Promise<import("./start.mjs").RunningMock>}
 */
export async function startPrismMock(options) {
  const specPath = options.specPath ?? BUNDLED_SPEC_PATH;
  const bundled = JSON.parse(await readFile(specPath, "utf8"));
  const { spec, basePath, basePaths } = mockSpecFrom(bundled);
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
  const others = basePaths.slice(1).map((base) => `${origin}${base}`);
  return {
    origin,
    url: `${origin}${basePath}`,
    title: String(bundled.info?.title ?? "API"),
    note: `Point the client's baseUrl at ${origin}${basePath}${others.length > 0 ? ` (or ${others.join(", ")})` : ""}; ${credentialsNote(bundled)}`,
    description: options.dynamic ? "generated data" : "the spec's named examples",
    reset: async () => {},
    close: () => server.close(),
  };
}
