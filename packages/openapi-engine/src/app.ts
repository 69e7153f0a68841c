/**
 * createEngineApp: the spec-driven engine as an Express app. Everything it does per operation
 * comes from the compiled contract (routes, credentials, deprecation, rate-limit plans, body
 * limit, validation, CORS); the application supplies only its handlers and its store. A pure
 * factory: it binds no port and reads no environment, so tests build as many as they like.
 */
import express, { type Express } from "express";
import type { Logger } from "pino";
import type { ApiKeyStore } from "./auth/api-key-store.js";
import { createKeyLookup } from "./auth/api-keys.js";
import { identifyCaller, type KeyLookup, requireCredential } from "./auth/caller.js";
import type { AppConfig } from "./config.js";
import type { Contract } from "./contract/contract.js";
import { contractValidation } from "./contract/contract-validation.js";
import { rejectNonFiniteParameters } from "./contract/finite-parameters.js";
import {
  answerOptions,
  buildOperationTable,
  resolveOperation,
} from "./contract/operation-table.js";
import { compileResponseConformance } from "./contract/response-conformance.js";
import { reportMissingHandlers, runHandlers } from "./contract/run-handlers.js";
import { compileResponseSerializers } from "./contract/serializers.js";
import { deprecationHeaders, refuseAfterSunset } from "./http/deprecation.js";
import { errorHandler, notFound } from "./http/error-handler.js";
import "./http/locals.js";
import { markUncounted, opsRoutes } from "./http/ops-routes.js";
import { pipeline } from "./http/pipeline.js";
import { jsonRequestBody } from "./http/request-body.js";
import { requestContext } from "./http/request-context.js";
import { corsFor, dateFromClock, staticResponseHeaders } from "./http/response-headers.js";
import { limitsFor, type RateLimiter, rateLimitMiddleware } from "./rate-limit/index.js";
import type { StoreLifecycle } from "./storage/lifecycle.js";

/** What the rate limiter offers the app beyond counting: readiness and shutdown. */
export interface LimiterLike {
  check(): Promise<void>;
  close(): Promise<void>;
}

/** The dependencies of the engine's app; everything stateful comes in from outside. */
export interface EngineDeps {
  contract: Contract;
  /** The application's handlers by operationId. */
  handlers: Readonly<Record<string, unknown>>;
  /** Where API keys live; probed by /readyz as "database". */
  store: ApiKeyStore & StoreLifecycle;
  limiter: RateLimiter;
  /** Milliseconds since the epoch; tests inject a fake. */
  clock: () => number;
  config: AppConfig;
  logger: Logger;
  /** Overrides the cached store lookup of API keys (the server adds its warm-up key). */
  keyLookup?: KeyLookup | undefined;
}

/** Builds the API app: the contract's operations under its base path, ops routes at the root. */
export function createEngineApp(deps: EngineDeps): Express {
  const { contract, config, logger } = deps;
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", config.trustProxy > 0 ? config.trustProxy : false);

  // Every request, ops routes included: one layer.
  const cors = corsFor(config.corsOrigins, contract.cors);
  app.use(
    pipeline([
      requestContext(logger),
      staticResponseHeaders(),
      ...(cors ? [cors] : []),
      ...(deps.clock === Date.now ? [] : [dateFromClock(deps.clock)]),
    ]),
  );

  // Operations without a handler answer 500, said once here; warm-up leaves them out.
  app.locals.missingHandlers = reportMissingHandlers(contract.operations, deps.handlers, logger);
  const validation = contractValidation(contract, { validateResponses: config.validateResponses });
  // Compiled here, before the first request. Without response validation, answers are written by
  // the serializers; with it, their status and required headers are checked before they leave.
  const serializers = config.validateResponses ? undefined : compileResponseSerializers(contract);
  const conformance = config.validateResponses ? compileResponseConformance(contract) : undefined;
  const onUnknownPlan = (key: { id: string; plan: string }) =>
    logger.warn(
      { keyId: key.id, plan: key.plan },
      "API key of a plan the contract does not have: counted on its anonymous plan",
    );
  const identify = identifyCaller(
    deps.keyLookup ?? createKeyLookup(deps.store, config.apiKeyCacheTtlMs),
  );
  const rateLimit = rateLimitMiddleware({
    limiter: deps.limiter,
    clock: deps.clock,
    limitsFor: limitsFor(contract.rateLimit, onUnknownPlan),
  });
  // Every API request takes these steps in this order, run by one Express layer (pipeline.ts).
  const api = pipeline([
    // First: which operation, so every answer of it (401 and 429 included) is that operation's.
    resolveOperation(buildOperationTable(contract.operations)),
    deprecationHeaders,
    identify,
    // Before the credential check: 401s are counted and carry the headers too. OPTIONS only
    // reads its window, and is answered right after, without a key.
    rateLimit,
    answerOptions,
    // 401 where a credential is needed; then the 404/405 of a request that matched nothing.
    requireCredential({ anonymousByDefault: contract.anonymousByDefault, realm: contract.realm }),
    refuseAfterSunset({ clock: deps.clock }),
    jsonRequestBody(contract.bodyLimitBytes),
    validation.middleware,
    rejectNonFiniteParameters,
    runHandlers(deps.handlers, { serializers, conformance }),
  ]);
  app.use(contract.basePath || "/", api);
  // Everything outside the API carries the rate-limit headers too: an unknown path or version is
  // counted like any request, the ops routes and OPTIONS only read the caller's window.
  app.use(pipeline([markUncounted, identify, rateLimit]));
  // After the API, so API requests never walk the ops routes (none of them is under it).
  app.use(
    opsRoutes({
      specText: contract.text,
      probes: { database: deps.store, "rate-limit store": deps.limiter },
      degradable: ["rate-limit store"],
      docsHtmlPath: config.docsHtmlPath,
      docsBuildHint: config.docsBuildHint,
    }),
  );

  app.use(notFound);
  app.use(errorHandler(logger, conformance));
  return app;
}
