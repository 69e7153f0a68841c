/**
 * createApp: the Express application as a pure factory. It takes its store, limiter, clock,
 * config and logger, binds no port and reads no environment, so tests build as many as they like.
 */
import express, { type Express } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import type { Logger } from "pino";
import { createKeyLookup } from "./api-keys.js";
import { identifyCaller, type KeyLookup, requireApiKey } from "./auth.js";
import type { AppConfig } from "./config.js";
import { getPetDeprecation, getPetDeprecationHeaders } from "./deprecation.js";
import { errorHandler, notFound } from "./error-handler.js";
import { rejectNonFiniteParameters } from "./finite-parameters.js";
import { compileResponseSerializers, createHandlers, runHandlers } from "./handlers/index.js";
import { corsFor, staticResponseHeaders } from "./http-headers.js";
import { buildOperationTable, resolveOperation } from "./operation-router.js";
import { opsRoutes } from "./ops-routes.js";
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

  app.use(requestContext(logger));
  app.use(staticResponseHeaders());
  const cors = corsFor(config.corsOrigins);
  if (cors) app.use(cors);

  const v1 = express.Router();
  // First, so every getPet response (401 and 429 included) carries Deprecation, Sunset, Link.
  // A pattern without named parameters: a bad percent-escape in the id must not fail here,
  // before rate limiting (the validator answers it with 400 and every header).
  v1.get(GET_PET_ROUTE, getPetDeprecationHeaders);
  v1.use(identifyCaller(deps.keyLookup ?? createKeyLookup(store, config.apiKeyCacheTtlMs)));
  // After identifyCaller, before requireApiKey: 401s are counted and carry the headers too.
  v1.use(rateLimitMiddleware({ limiter: deps.limiter, clock: deps.clock }));
  v1.use(requireApiKey);
  v1.get(GET_PET_ROUTE, getPetDeprecation({ clock: deps.clock }));
  v1.use(resolveOperation(buildOperationTable(specOperations(spec))));
  v1.use(jsonRequestBody(requestBodyLimitBytes(spec)));
  v1.use(
    OpenApiValidator.middleware({
      // The validator annotates the document it is given; it gets its own copy.
      apiSpec: structuredClone(spec) as never,
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false },
      validateResponses: config.validateResponses,
      validateSecurity: false,
      // Bodies are JSON only and parsed above; no multipart middleware (one less step a request).
      fileUploader: false,
    }),
  );
  v1.use(rejectNonFiniteParameters);
  const handlers = createHandlers(store, { defaultListLimit: defaultListLimit(spec) });
  // Compiled here, before the first request; without response validation answers use them.
  const serializers = config.validateResponses ? undefined : compileResponseSerializers(spec);
  v1.use(runHandlers(handlers, serializers));
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
