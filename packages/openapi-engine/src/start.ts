/**
 * startEngine: the start-up sequence for any application, and a graceful close.
 *
 *   environment → config → contract → compiled operations → store (opened, migrated)
 *   → `beforeListen` (the application's own preparation, such as a first key)
 *   → rate limiter → app → HTTP server → warm-up (an app of its own) → listen
 *
 * Anything that fails before listening closes what was opened and rejects with a message that
 * names the cause (a bad variable, a spec it cannot serve, a database it cannot open).
 */
import type { Server } from "node:http";
import { type LoadedSpec, type PlanLimits, readSpec } from "@animal-store/openapi";
import type { Logger } from "pino";
import { assembleApiApp, readinessProbes } from "./api-app.js";
import type { Application, EngineStore } from "./application.js";
import { issueApiKey, type KeyLookup, type NewKeyOptions } from "./auth/security.js";
import { compileOperations, withHandlers } from "./compiled-operation.js";
import { type AppConfig, loadConfig } from "./config.js";
import { type Contract, compileContract } from "./contract/contract.js";
import { baseUrl, closeGracefully, createHttpServer, listen } from "./http-server/http-server.js";
import { EngineMetrics } from "./metrics/engine-metrics.js";
import { type MetricsRoute, startMetricsListener } from "./metrics/listener.js";
import { createLogger } from "./metrics/observe.js";
import type { OpsRoute } from "./ops-routes/ops-routes.js";
import { type ReadinessMonitor, readinessMonitor } from "./ops-routes/readiness.js";
import { createRateLimiter, type RateLimiter } from "./rate-limit/index.js";
import { keyUsage } from "./rate-limit/usage.js";
import { requestTracing } from "./tracing/request-tracing.js";
import { warmUp } from "./warm-up/warm-up.js";

/**
 * GET /usage/keys/<id> on the metrics listener: the key's usage in this instance's limiter (Redis,
 * shared by every instance, when REDIS_URL is set; else this instance's memory alone).
 */
function usageRoute(
  store: EngineStore,
  limiter: RateLimiter,
  contract: Contract,
  clock: () => number,
  config: AppConfig,
): MetricsRoute {
  const scope = config.rateLimit.redisUrl === null ? "instance" : "shared";
  return {
    prefix: "/usage/keys/",
    async answer(id) {
      const key = (await store.listApiKeys()).find((k) => k.id === id);
      if (!key) return { status: 404, body: { error: `no key with id ${id}` } };
      const policy = contract.rateLimit;
      if (!contract.rateLimited) {
        return { status: 404, body: { error: "the contract declares no rate limits" } };
      }
      return { status: 200, body: await keyUsage(key, { limiter, policy, scope, nowMs: clock() }) };
    },
  };
}

/** How often a running server probes its backing services on its own (logging changes). */
const READINESS_PROBE_MS = 5000;

/** What a caller may set besides the environment (the application's entry point, tests, gates). */
export interface StartOptions<S extends EngineStore = EngineStore> {
  /** Milliseconds since the epoch for rate-limit windows and sunsets; default Date.now. */
  clock?: () => number;
  /** Another bundled contract to serve (a scratch copy, a released one); default the application's. */
  spec?: LoadedSpec;
  /** Runs once the store is open and migrated, before the server listens (a first key, say). */
  beforeListen?: (opened: { store: S; contract: Contract; config: AppConfig }) => Promise<void>;
  /**
   * Wraps the store the handlers get (tests plant faults there); API keys and readiness keep
   * using the store itself.
   */
  handlerStore?: (store: S) => S;
  /**
   * Replaces the lookup of presented keys in the store (an application with a key policy of its
   * own, such as a mock accepting any well-formed key). The engine still reads the credential and
   * checks its form first, so a lookup only ever sees a well-formed bearer token.
   */
  keyLookup?: KeyLookup;
  /** The application's own ops routes, outside the base path (a mock's reset, say). */
  opsRoutes?: readonly OpsRoute[];
}

/** A listening server. */
export interface RunningServer<S> {
  /** Base address, e.g. http://127.0.0.1:41234 (the API is under `${url}${contract.basePath}`). */
  url: string;
  /** Creates an API key in this server's store and returns the plaintext key. */
  createKey(opts: NewKeyOptions): Promise<string>;
  /** Graceful: stop accepting, finish in-flight requests, close the store and the limiter. */
  close(): Promise<void>;
  config: AppConfig;
  contract: Contract;
  store: S;
  logger: Logger;
}

/** Starts `application` on `env`; resolves once warmed up and listening. */
export async function startEngine<S extends EngineStore>(
  application: Application<S>,
  env: Record<string, string | undefined>,
  options: StartOptions<S> = {},
): Promise<RunningServer<S>> {
  const config = loadConfig(env, application.names);
  const contract = compileContract(
    options.spec ?? (config.bundlePath ? readSpec(config.bundlePath) : application.spec),
  );
  const logger = createLogger(config, application.names.service);
  if (contract.errorShapeMismatch !== undefined) logger.warn(contract.errorShapeMismatch);
  const clock = options.clock ?? Date.now;
  const compiled = await compileOperations(contract, {
    validateResponses: config.validateResponses,
  });
  const store = await application.openStore(config.database);
  // METRICS_PORT=0: no metrics object at all, so nothing is counted on the hot path.
  const metrics = config.metrics.port === 0 ? undefined : new EngineMetrics(contract);
  let limiter: RateLimiter | undefined;
  let server: ReturnType<typeof createHttpServer>;
  let metricsServer: Server | null = null;
  let readiness: ReadinessMonitor | undefined;
  try {
    await application.checkStorage?.(store, contract.spec);
    await options.beforeListen?.({ store, contract, config });
    // Without rate limits in the contract nothing is counted: an in-process limiter stands in
    // (never asked), so no Redis connection is made for nothing.
    limiter = await createRateLimiter(
      contract.rateLimited ? config.rateLimit : { ...config.rateLimit, redisUrl: null },
      contract.rateLimit.ban,
      logger,
      metrics && (() => metrics.rateLimitStoreErrors++),
    );
    const handlers = application.handlers(options.handlerStore?.(store) ?? store, contract);
    readiness = readinessMonitor(
      readinessProbes({ keyStore: store, limiter: contract.rateLimited ? limiter : undefined }),
      logger,
    );
    const app = assembleApiApp({
      contract,
      operations: withHandlers(compiled, handlers, logger),
      keyStore: store,
      limiter,
      clock,
      config,
      logger,
      keyLookup: options.keyLookup,
      verifiers: application.verifiers?.(store),
      opsRoutes: options.opsRoutes,
      metrics,
      readiness,
    });
    server = createHttpServer(app, {
      config,
      limiter,
      clock,
      anonymousLimits: contract.rateLimited
        ? (contract.rateLimit.plans[contract.rateLimit.anonymousPlan] as PlanLimits)
        : undefined,
      errorShape: contract.errorShape,
      bounds: {
        targetLimitBytes: contract.targetLimitBytes,
        bodyLimitBytes: contract.bodyLimitBytes,
      },
      observed: observeConnectionAnswers(logger, metrics),
      tuneV8: application.tuneV8ForServing,
    });
    await warmUp(application, { contract, operations: compiled, config, clock });
    if (metrics) {
      metricsServer = await startMetricsListener({
        ...config.metrics,
        // prom-client is loaded only when metrics are on.
        registry: (await import("./metrics/registry.js")).metricsRegistry(metrics, {
          gcDurations: config.metrics.gcDurations,
        }),
        routes: [usageRoute(store, limiter, contract, clock, config)],
        logger,
      });
    }
    await listen(server, config.port, config.host);
  } catch (err) {
    metricsServer?.close();
    await Promise.allSettled([store.close(), limiter?.close()]);
    throw err;
  }
  const url = baseUrl(server, config.host);
  logger.info({ url, engine: store.engine }, "listening");
  // Readiness is checked now and every few seconds, not only when something polls /readyz: a
  // database down at start, or going away later, is logged with its cause when it happens.
  const monitor = readiness as ReadinessMonitor;
  const probeNow = () => void monitor.check().catch(() => {});
  probeNow();
  const probing = setInterval(probeNow, READINESS_PROBE_MS);
  probing.unref();
  // Shown at once, not with the next batch of lines.
  logger.flush();
  const running = limiter;
  let closing: Promise<void> | undefined;
  return {
    url,
    config,
    contract,
    store,
    logger,
    createKey: async (opts) => (await issueApiKey(store, contract.rateLimit, opts)).key,
    close() {
      closing ??= (async () => {
        clearInterval(probing);
        await closeGracefully(server, config.shutdownTimeoutMs);
        metricsServer?.closeAllConnections();
        metricsServer?.close();
        // Traces of the last requests are exported before the process ends.
        await requestTracing()?.shutdown();
        await Promise.allSettled([store.close(), running.close()]);
        logger.info("closed");
        logger.flush();
      })();
      return closing;
    },
  };
}

/**
 * An answer given before a request could be read (http-server/http-server.ts) gets what
 * metrics/observe.ts gives every other: one access line (no method or path: none was
 * read) and its count in the metrics, under the requests outside the API.
 */
function observeConnectionAnswers(logger: Logger, metrics: EngineMetrics | undefined) {
  const logRequests = logger.isLevelEnabled("info");
  if (!logRequests && metrics === undefined) return undefined;
  return (status: number, requestId: string, ms: number) => {
    if (logRequests) {
      logger.info(
        { reqId: requestId, status, ms: Math.round(ms * 10) / 10, connection: true },
        "request",
      );
    }
    metrics?.requests.record(metrics.requests.outsideApi, "", status, ms / 1000);
  };
}
