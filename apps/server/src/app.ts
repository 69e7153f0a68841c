/**
 * createApp: the Express application as a pure factory. It takes its store, limiter, clock,
 * config and logger, binds no port and reads no environment, so tests build as many as they like.
 */
import express, { type Express, type Request } from "express";
import type { Logger } from "pino";
import { createKeyLookup } from "./api-keys.js";
import { identifyCaller, type KeyLookup, requireApiKey } from "./auth.js";
import type { AppConfig } from "./config.js";
import { contractValidation } from "./contract-validation.js";
import { getPetDeprecation, getPetDeprecationHeaders } from "./deprecation.js";
import { errorHandler, notFound } from "./error-handler.js";
import { rejectNonFiniteParameters } from "./finite-parameters.js";
import { compileResponseSerializers, createHandlers, runHandlers } from "./handlers/index.js";
import { corsFor, staticResponseHeaders } from "./http-headers.js";
import { buildOperationTable, resolveOperation } from "./operation-router.js";
import { opsRoutes } from "./ops-routes.js";
import { pipeline, when } from "./pipeline.js";
import { type RateLimiter, rateLimitMiddleware } from "./rate-limit/index.js";
import { jsonRequestBody } from "./request-body.js";
import { requestContext } from "./request-context.js";
import {
  defaultListLimit,
  loadBundledSpec,
  requestBodyLimitBytes,
  specOperations,
} from "./spec.js";
import type { Store } from "./store/index.js";

/** What the app needs from the rate limiter beyond the middleware: readiness and shutdown. */
export interface LimiterLike {
  check(): Promise<void>;
  close(): Promise<void>;
}

/** The dependencies of the app; everything stateful comes in from outside. */
export interface AppDeps {
  store: Store;
  limiter: RateLimiter;
  /** Milliseconds since the epoch; tests inject a fake. */
  clock: () => number;
  config: AppConfig;
  logger: Logger;
  /** Overrides the cached store lookup of API keys (startServer adds its warm-up key). */
  keyLookup?: KeyLookup;
}

/** GET /pets/{petId} under /v1, matched like the operation router (case-sensitive). */
const GET_PET_ROUTE = /^\/pets\/[^/]+\/?$/;

/** Builds the Animal Store API app (routes under /v1, ops routes at the root). */
export function createApp(deps: AppDeps): Express {
  const { store, config, logger } = deps;
  const { spec, text: specText } = loadBundledSpec();
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", config.trustProxy > 0 ? config.trustProxy : false);

  // Every request, ops routes included: one layer.
  const cors = corsFor(config.corsOrigins);
  app.use(pipeline([requestContext(logger), staticResponseHeaders(), ...(cors ? [cors] : [])]));

  const operations = specOperations(spec);
  const validation = contractValidation(spec, operations, {
    validateResponses: config.validateResponses,
  });
  const handlers = createHandlers(store, { defaultListLimit: defaultListLimit(spec) });
  // Compiled here, before the first request; without response validation answers use them.
  const serializers = config.validateResponses ? undefined : compileResponseSerializers(spec);
  const isGetPet = (req: Request) =>
    (req.method === "GET" || req.method === "HEAD") && GET_PET_ROUTE.test(req.path);
  // Every API request takes these steps in this order, run by one Express layer (pipeline.ts).
  const v1 = pipeline([
    // First, so every getPet response (401 and 429 included) carries Deprecation, Sunset, Link.
    // A pattern without named parameters: a bad percent-escape in the id must not fail here,
    // before rate limiting (the validator answers it with 400 and every header).
    when(isGetPet, getPetDeprecationHeaders),
    identifyCaller(deps.keyLookup ?? createKeyLookup(store, config.apiKeyCacheTtlMs)),
    // After identifyCaller, before requireApiKey: 401s are counted and carry the headers too.
    rateLimitMiddleware({ limiter: deps.limiter, clock: deps.clock }),
    requireApiKey,
    when(isGetPet, getPetDeprecation({ clock: deps.clock })),
    resolveOperation(buildOperationTable(operations)),
    jsonRequestBody(requestBodyLimitBytes(spec)),
    validation.middleware,
    rejectNonFiniteParameters,
    runHandlers(handlers, serializers),
  ]);
  app.use("/v1", v1);
  // After /v1, so API requests never walk the ops routes (none of them is under /v1).
  app.use(
    opsRoutes({
      specText,
      probes: { database: store, "rate-limit store": deps.limiter },
      degradable: ["rate-limit store"],
      docsHtmlPath: config.docsHtmlPath,
    }),
  );

  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
