/**
 * The API as an Express app: the request lifecycle assembled from its steps (see README.md,
 * "Request lifecycle"), its entry, and the steps every request takes (below: the response headers
 * and the request id). Every request first gets its id, access log and response headers; under
 * the base path the router hands it to one of three lifecycles (an operation, OPTIONS, or
 * nothing matched); outside it, the ops routes. A pure factory over compiled operations: it binds
 * no port and reads no environment, so tests and the warm-up build as many as they like.
 */

import { randomUUID } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { LoadedSpec, PlanLimits } from "@animal-store/openapi";
import cors from "cors";
import express, { type RequestHandler } from "express";
import type { Logger } from "pino";
import type { Application, EngineStore } from "./application.js";
import {
  compileContractSecurity,
  createKeyLookup,
  identifyCaller,
  type KeyLookup,
  requireCredential,
  type Verifiers,
} from "./auth/security.js";
import {
  type CompiledOperation,
  compileOperations,
  withHandlers,
  withSecurity,
} from "./compiled-operation.js";
import type { AppConfig } from "./config.js";
import { type Contract, compileContract } from "./contract/contract.js";
import { deprecationHeaders, refuseAfterSunset } from "./deprecation/deprecation.js";
import { errorHandler, notFound } from "./error-handler.js";
import { presetHeaders, type RequestLocals, setEngineHeader } from "./express-messages.js";
import { installEdgeAnswers } from "./http-server/edge-answers.js";
import { type ServedApp, staticResponseHeaders } from "./http-server/http-server.js";
import { step } from "./lifecycle/lifecycle.js";
import type { EngineMetrics } from "./metrics/engine-metrics.js";
import { measureRequests, observeRequests } from "./metrics/observe.js";
import { countedOutsideApi, type OpsRoute, opsPaths, opsRoutes } from "./ops-routes/ops-routes.js";
import { type ReadinessMonitor, readinessMonitor } from "./ops-routes/readiness.js";
import { limitsFor, type RateLimiter, rateLimit } from "./rate-limit/index.js";
import { requestBody } from "./request-body/body-step.js";
import { handle, refuseUnacceptable } from "./responses/handle.js";
import {
  answerOptions,
  Lifecycle,
  type Preflight,
  type Routed,
  refuseUnmatched,
  router,
  type Unmatched,
} from "./routing/router.js";
import { buildRouteTable } from "./routing/table.js";
import type { ApiKeyStore } from "./storage/api-key-store.js";
import type { StoreLifecycle } from "./storage/store-lifecycle.js";
import { requestTracing } from "./tracing/request-tracing.js";
import { traceOperation } from "./tracing/trace-operation.js";
import { parseQuery, validateRequest } from "./validation/validate.js";

/**
 * The store lookups of unknown keys one client address may cost per minute when the contract
 * declares no rate limits (with them, its anonymous plan's per-minute number).
 */
const UNKNOWN_KEY_LOOKUPS_PER_MINUTE = 60;

/** What the rate limiter offers the app beyond counting: readiness and shutdown. */
export interface LimiterLike {
  check(): Promise<void>;
  close(): Promise<void>;
}

/** The app's dependencies; everything stateful comes in from outside. */
export interface ApiAppDeps {
  contract: Contract;
  /** Every operation of `contract`, compiled, with the application's handlers bound. */
  operations: CompiledOperation[];
  /** Where API keys live; probed by /readyz as "database". */
  keyStore: ApiKeyStore & StoreLifecycle;
  limiter: RateLimiter;
  /** Milliseconds since the epoch; tests inject a fake. */
  clock: () => number;
  config: AppConfig;
  logger: Logger;
  /** Replaces the cached lookup of keys in `keyStore` (the warm-up's one-off key, tests). */
  keyLookup?: KeyLookup | undefined;
  /**
   * The application's verifier of each security scheme, by name (`Application.verifiers`); a
   * bearer or apiKey scheme without one is checked by the key lookup (auth/security.ts).
   */
  verifiers?: Verifiers | undefined;
  /** The application's own ops routes, outside the base path (see ops-routes.ts). */
  opsRoutes?: readonly OpsRoute[] | undefined;
  /** Where requests are counted for /metrics; none: nothing is counted (metrics off). */
  metrics?: EngineMetrics | undefined;
  /** The probes /readyz runs (start.ts shares them with its own checks); default built here. */
  readiness?: ReadinessMonitor | undefined;
}

/** What /readyz probes: the store (as "database") and the rate limiter, when it counts. */
export function readinessProbes(deps: {
  keyStore: LimiterLike;
  limiter: LimiterLike | undefined;
}): Record<string, LimiterLike> {
  // Without rate limits the limiter is never asked, so it is not a service /readyz reports.
  return deps.limiter === undefined
    ? { database: deps.keyStore }
    : { database: deps.keyStore, "rate-limit store": deps.limiter };
}

/**
 * The API app: the request listener every request takes, first the steps every request takes
 * and the router, then for a request outside the API (the router's `next()`) the Express app
 * below, with the ops routes, the 404 and the error handler. An API request never walks
 * Express's router: its whole lifecycle is the router's, in one composed function, and its
 * errors go straight to the error handler. `express` is that app, whose request and response
 * classes the server builds every request with (express-messages.ts).
 */
export type ApiApp = ServedApp;

/** Assembles the API app: the contract's operations under its base paths, ops routes at the root. */
export function assembleApiApp(deps: ApiAppDeps): ApiApp {
  const { contract, config, logger, clock } = deps;
  const ownOps = deps.opsRoutes ?? [];
  const outsideApi = opsPaths(ownOps, contract.basePaths);
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", config.trustProxy > 0 ? config.trustProxy : false);
  // Express's default parser's result, split without decoding when there is nothing to decode.
  app.set("query parser", parseQuery);
  const { metrics } = deps;
  // Read once: with tracing off no tracing step is added and the limiter is not wrapped.
  const tracing = requestTracing();
  // Every request, ops routes included, in one Express layer. Access lines and metrics first,
  // from one listener per response, so that every request is logged and counted whatever a later
  // step does; then the fixed headers and the request id.
  const observe = observeRequests(logger, metrics && measureRequests(metrics, contract.basePaths));
  const everyRequest = (observe ? Lifecycle.after().use(observe) : Lifecycle.after())
    .use(responseHeaders({ corsOrigins: config.corsOrigins, cors: contract.cors, clock }))
    .use(requestContext());

  // An address may cost as many store lookups of unknown keys per minute as its anonymous plan
  // allows it requests (a contract without rate limits: UNKNOWN_KEY_LOOKUPS_PER_MINUTE).
  const policy = contract.rateLimit;
  const limited = contract.rateLimited;
  const anonymous = policy.plans[policy.anonymousPlan] as PlanLimits;
  const keyLookup =
    deps.keyLookup ??
    createKeyLookup(deps.keyStore, config.apiKeyCacheTtlMs, {
      perMinute: limited ? anonymous.perMinute : UNKNOWN_KEY_LOOKUPS_PER_MINUTE,
    });
  // Every operation's security, and the document's (for requests that match no operation, the
  // ops routes and the edge's answers): compiled once, verifiers bound; throws naming a scheme
  // it cannot check, so the server does not start.
  const security = compileContractSecurity(contract.spec, contract.operations, {
    verifiers: deps.verifiers,
    keyLookup,
  });
  const operations = withSecurity(deps.operations, security);
  const documentSecurity = security.forDocument();
  const identify = identifyCaller(documentSecurity.check);
  const limits = limitsFor(policy, (key) =>
    logger.warn(
      { keyId: key.id, plan: key.plan },
      "API key of a plan the contract does not have: counted on its anonymous plan",
    ),
  );
  // Without rate limits (a contract with no `info.x-rate-limit-*`) the counting steps are left
  // out of every lifecycle: nothing is counted and no answer carries rate-limit headers.
  const counting = (counted?: (req: express.Request) => boolean) =>
    rateLimit({
      limiter: deps.limiter,
      clock,
      limitsFor: limits,
      counted,
      tracing,
      onRefused:
        metrics &&
        ((caller, code) =>
          metrics.refused(caller.kind === "key" ? caller.key.plan : undefined, code)),
    });
  const count = counting();
  const checked = config.validateResponses;

  // A request of an operation, one lifecycle per operation: a step that does nothing for an
  // operation (deprecation for one that is not deprecated, the body for one without) is left
  // out of its lifecycle. Deprecation headers first, so every answer of a deprecated operation
  // (401 and 429 included) carries them; rate limiting before the credential check, so 401s are
  // counted and carry X-RateLimit-* too.
  const routed = Lifecycle.after<RequestLocals & Routed<CompiledOperation>>();
  const traced = tracing ? routed.use(traceOperation(tracing, contract.basePath)) : routed;
  // Left out of the lifecycle of an operation (or document) that asks for no credential.
  const credential = requireCredential(documentSecurity.refuse);
  const sunset = refuseAfterSunset(clock);
  const body = requestBody(contract.bodyLimitBytes);
  const handled = handle({ checked });
  const operation = (op: CompiledOperation) => {
    const { check, refuse } = op.authentication as NonNullable<CompiledOperation["authentication"]>;
    return traced
      .useIf(op.deprecation?.headers !== undefined, deprecationHeaders)
      .use(identifyCaller(check))
      .useIf(limited, count)
      .useIf(op.requiresCredential, requireCredential(refuse))
      .useIf(op.deprecation?.sunsetMs !== undefined, sunset)
      .useIf(op.body !== undefined, body)
      .use(validateRequest)
      .useIf(op.answers.negotiates, refuseUnacceptable)
      .use(handled)
      .handler();
  };
  // OPTIONS on a path that does not declare it: the caller's window is read, never counted.
  const options = Lifecycle.after<RequestLocals & Preflight>()
    .use(identify)
    .useIf(
      limited,
      counting(() => false),
    )
    .use(answerOptions);
  // An unknown path or method: counted, and a credential asked for (the document's security)
  // before the 404 or 405 is revealed.
  const unmatched = Lifecycle.after<RequestLocals & Unmatched>()
    .use(identify)
    .useIf(limited, count)
    .useIf(!contract.anonymousByDefault, credential)
    .use(refuseUnmatched);
  const apiRouter = router<CompiledOperation, RequestLocals>(
    buildRouteTable(operations),
    { operation, options: options.handler(), unmatched: unmatched.handler() },
    { basePaths: contract.basePaths, outside: outsideApi },
  );
  // Every request's first steps, then the router, which finds the base path itself and hands
  // every other request on to the Express app's layers below (see `ApiApp`).
  const entry = everyRequest.use(apiRouter).handler();

  // Everything outside the API carries the rate-limit headers too: an unknown path or version is
  // counted like any request, the ops routes and OPTIONS only read the caller's window. After the
  // API, so API requests never walk the ops routes (none of them is under it).
  const countOutsideApi = counting(countedOutsideApi(outsideApi));
  app.use(Lifecycle.after().use(identify).useIf(limited, countOutsideApi).handler());
  app.use(
    opsRoutes({
      specText: contract.text,
      readiness:
        deps.readiness ??
        readinessMonitor(
          readinessProbes({ keyStore: deps.keyStore, limiter: limited ? deps.limiter : undefined }),
          logger,
        ),
      degradable: ["rate-limit store"],
      docsHtmlPath: config.docsHtmlPath,
      basePath: contract.basePath,
      docsBuildHint: config.docsBuildHint,
      own: ownOps,
    }),
  );
  app.use(notFound);
  const handleError = errorHandler(logger, {
    checked,
    errorShape: contract.errorShape,
    onStoreUnavailable: metrics && (() => metrics.databaseErrors++),
  });
  app.use(handleError);
  // Requests refused at the edge: the same first steps, the caller counted, the edge's error.
  installEdgeAnswers(app, {
    steps: [
      everyRequest.handler(),
      Lifecycle.after().use(identify).useIf(limited, count).handler(),
    ],
    errorHandler: handleError,
  });
  const below = app as unknown as RequestListener;
  const serve = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const req = incoming as IncomingMessage & express.Request;
    const res = outgoing as ServerResponse & express.Response;
    // What Express's app.handle sets before its first layer (the request and the response are
    // already Express's, made with the app's classes: express-messages.ts).
    req.res = res;
    res.req = req;
    req.originalUrl = req.url as string;
    entry(req, res, (err?: unknown) => {
      if (err === undefined || err === null) below(req, res);
      else handleError(err, req, res, lastResort);
    });
  };
  return Object.assign(serve, { express: app });
}

/** The error handler answers every error itself; nothing is left for a `next` to do. */
const lastResort: express.NextFunction = () => {};

/*
 * The steps every request takes, after the access line and the metrics count (metrics/observe.ts).
 *
 * Response headers every answer carries: helmet's security headers (a JSON API needs no script,
 * style or framing, so the CSP allows nothing; the list is http-server.ts's
 * `staticResponseHeaders`, which the edge's answers carry too), `Cache-Control: no-store` (answers
 * depend on the caller's key), and CORS for the configured origins so a browser app can send the
 * bearer header and read the documented headers.
 *
 * Request ids. An incoming `X-Request-Id` is kept when it is short and plain (so ids can be traced
 * through a proxy), otherwise one is generated; it is echoed back and goes into every log line
 * (metrics/observe.ts writes the access line) and every 500 message.
 */

/** What CORS lets a browser app do: the contract's methods, request and response headers. */
interface CorsLists {
  methods: string[];
  allowedHeaders: string[];
  exposedHeaders: string[];
}

/**
 * CORS for `origins` (or any origin for `["*"]`), allowing the contract's methods and request
 * headers and exposing every response header it documents; null when no origin is configured.
 */
function corsFor(origins: string[], lists: CorsLists): RequestHandler | null {
  if (origins.length === 0) return null;
  return cors({
    origin: origins.includes("*") ? "*" : origins,
    methods: lists.methods,
    allowedHeaders: lists.allowedHeaders,
    exposedHeaders: lists.exposedHeaders,
    maxAge: 600,
    // The preflight goes on to the API, which answers it 204 with Allow and the caller's
    // rate-limit headers (an OPTIONS request is never counted).
    preflightContinue: true,
  });
}

/** What every answer's headers depend on. */
interface ResponseHeaderOptions {
  /** Origins a browser app may call from (CORS_ORIGINS); none turns CORS off. */
  corsOrigins: string[];
  cors: CorsLists;
  /**
   * Milliseconds since the epoch. Another clock than Date.now (tests and gates run the server at
   * another time) also sets `Date`, so clients that correct for clock skew with it agree with
   * `X-RateLimit-Reset`; with the real clock Node writes `Date` itself.
   */
  clock: () => number;
}

/** The first step of every request: security headers, no-store, CORS and, with a test clock, Date. */
function responseHeaders(options: ResponseHeaderOptions) {
  const preset = presetHeaders(staticResponseHeaders());
  const cors = corsFor(options.corsOrigins, options.cors);
  const clock = options.clock === Date.now ? undefined : options.clock;
  return step(function responseHeaders(req, res, next) {
    preset(res);
    if (clock !== undefined) res.setHeader("Date", new Date(clock()).toUTCString());
    if (cors === null) next();
    else cors(req, res, next);
  });
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The step after the fixed headers: sets `requestId` and echoes it as X-Request-Id. */
export function requestContext() {
  return step<object, RequestLocals>(function requestContext(req, res, next) {
    const incoming = req.headers["x-request-id"];
    const requestId =
      typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    setEngineHeader(res, "x-request-id", "X-Request-Id", requestId);
    next();
  });
}

/** What `createApiApp` builds an app of an application on. */
export interface ApiAppOptions<S extends EngineStore> {
  /** The handlers' store, and where keys are looked up (unless `keyLookup` says otherwise). */
  store: S;
  limiter: RateLimiter;
  config: AppConfig;
  logger: Logger;
  /** Default Date.now. */
  clock?: () => number;
  /** Another bundled contract to serve; default the application's. */
  spec?: LoadedSpec;
  keyLookup?: KeyLookup;
}

/**
 * `application`'s API app on `options.store`: its contract compiled, its handlers bound. For
 * suites and gates that run the app in-process without the start-up sequence (startEngine).
 */
export async function createApiApp<S extends EngineStore>(
  application: Application<S>,
  options: ApiAppOptions<S>,
): Promise<ApiApp> {
  const contract = compileContract(options.spec ?? application.spec);
  const compiled = await compileOperations(contract, {
    validateResponses: options.config.validateResponses,
  });
  const handlers = application.handlers(options.store, contract);
  return assembleApiApp({
    contract,
    operations: withHandlers(compiled, handlers, options.logger),
    keyStore: options.store,
    limiter: options.limiter,
    clock: options.clock ?? Date.now,
    config: options.config,
    logger: options.logger,
    keyLookup: options.keyLookup,
    verifiers: application.verifiers?.(options.store),
  });
}
