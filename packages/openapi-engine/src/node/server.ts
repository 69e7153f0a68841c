/**
 * startApiServer: config → contract → store → app → warm-up → listen, and a graceful close, for
 * any application the engine serves (its handlers and store). The Animal Store's `startServer`
 * (src/server.ts) is this with its own application.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { LoadedSpec, PlanLimits } from "@animal-store/openapi";
import type { Express } from "express";
import type { EngineDeps } from "../app.js";
import type { ApiKeyStore } from "../auth/api-key-store.js";
import { createKeyLookup, issueApiKey, type NewKeyOptions } from "../auth/api-keys.js";
import type { ApiKeyRecord, KeyLookup } from "../auth/caller.js";
import { type AppConfig, type ConfigDefaults, type DatabaseConfig, loadConfig } from "../config.js";
import { type Contract, compileContract } from "../contract/contract.js";
import { exampleRequest } from "../contract/example-requests.js";
import { connectionAnswers } from "../http/client-errors.js";
import { capConnections } from "../http/connection-caps.js";
import { expressMessageClasses } from "../http/express-messages.js";
import { createRateLimiter } from "../rate-limit/index.js";
import { dryRunStore } from "../storage/dry-run.js";
import type { StoreLifecycle } from "../storage/lifecycle.js";
import { createLogger, type Logger } from "./logger.js";
import { warmUp } from "./warm-up.js";
import { WARM_UP_KEY_ID } from "./warm-up-key.js";

/** What an application names that the engine does not: its logs' service and its defaults. */
export interface ApplicationNames extends ConfigDefaults {
  /** The `service` of every log line. */
  service: string;
}

/**
 * What an application gives the engine: its names, the contract it serves, how to open its
 * store, and its app on that store.
 */
export interface ApiApplication<S extends ApiKeyStore & StoreLifecycle> {
  names: ApplicationNames;
  /** The bundled contract the application serves. */
  spec: LoadedSpec;
  /** Opens (and migrates) the configured store. */
  openStore(database: DatabaseConfig): Promise<S>;
  /** Opens a throw-away store of the same kind; what warm-up requests write lands there. */
  openScratchStore(): Promise<S>;
  /** The engine's app with the application's handlers on `deps.store`. */
  createApp(deps: Omit<EngineDeps, "handlers" | "store"> & { store: S }): Express;
}

/** What a caller may replace besides the environment (tests and gates). */
export interface StartOptions {
  /** Milliseconds since the epoch for rate-limit windows and sunsets; default Date.now. */
  clock?: () => number;
  /** Another bundled contract to serve (a scratch copy, a released version); default the application's. */
  spec?: LoadedSpec;
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

function baseUrl(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/**
 * Stops accepting and lets in-flight requests finish. Keep-alive sockets are closed as soon as
 * they go idle (a request that finishes during the drain leaves its socket idle, hence the
 * sweep); whatever is still open after `timeoutMs` is cut.
 */
export function closeGracefully(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** A key record valid only while the app warms up; never written to any store. */
function warmUpRecord(contract: Contract): ApiKeyRecord {
  return {
    id: WARM_UP_KEY_ID,
    name: "warm-up",
    plan: contract.rateLimit.planNames[0] as string,
    // Limits it cannot reach: warm-up sends one request per operation.
    perMinute: Number.MAX_SAFE_INTEGER,
    perDay: Number.MAX_SAFE_INTEGER,
    createdAt: new Date().toISOString(),
    revokedAt: null,
  };
}

/** Starts `application` on `env`; resolves once listening and warmed up. */
export async function startApiServer<S extends ApiKeyStore & StoreLifecycle>(
  application: ApiApplication<S>,
  env: Record<string, string | undefined>,
  options: StartOptions = {},
): Promise<RunningServer<S>> {
  const config = loadConfig(env, application.names);
  const contract = compileContract(options.spec ?? application.spec);
  const logger = createLogger(config, application.names.service);
  const store = await application.openStore(config.database);
  const scratch = await application.openScratchStore().catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  const limiter = await createRateLimiter(config.rateLimit, contract.rateLimit.ban, logger);
  // A one-off key, valid only while the app warms up in-process, so every validator and
  // serializer is compiled before the first real request.
  const warmUpKey = `warmup_${randomBytes(24).toString("base64url")}`;
  const record = warmUpRecord(contract);
  let warming = true;
  const storeLookup = createKeyLookup(store, config.apiKeyCacheTtlMs);
  const keyLookup: KeyLookup = (key) => (warming && key === warmUpKey ? record : storeLookup(key));
  const dryRun = dryRunStore(store, scratch);
  const app = application.createApp({
    contract,
    store: dryRun.store,
    limiter,
    clock: options.clock ?? Date.now,
    config,
    logger,
    keyLookup,
  });
  // Requests and responses are built with Express's prototypes (express-messages.ts).
  const messageClasses = expressMessageClasses(app);
  const bounds = config.connections;
  const server = createServer(
    {
      // A slow client cannot hold a connection for minutes (Node's defaults: 60 s for the
      // headers, 300 s for the request, checked every 30 s): the bounds are checked every second.
      headersTimeout: bounds.headersTimeoutMs,
      requestTimeout: bounds.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, bounds.headersTimeoutMs),
      keepAliveTimeout: bounds.keepAliveTimeoutMs,
      ...messageClasses,
    },
    app,
  );
  const answers = connectionAnswers({
    limiter,
    clock: options.clock ?? Date.now,
    anonymousLimits: contract.rateLimit.plans[contract.rateLimit.anonymousPlan] as PlanLimits,
  });
  server.on("clientError", answers.clientError);
  capConnections(
    server,
    {
      total: bounds.maxConnections,
      // Behind a proxy every connection comes from its address: only the total cap applies.
      perAddress: config.trustProxy > 0 ? 0 : bounds.maxConnectionsPerAddress,
    },
    answers.refuseConnection,
  );
  try {
    // An operation without a handler (reported at start) would only answer 500.
    const missing = new Set<string>(app.locals.missingHandlers ?? []);
    const requests = contract.operations
      .filter((op) => !missing.has(op.operationId))
      .map((op) => exampleRequest(contract.spec, contract.basePath, op));
    await warmUp(app, requests, warmUpKey, messageClasses);
    warming = false;
    dryRun.end();
    await scratch.close();
    await listen(server, config.port, config.host);
  } catch (err) {
    await Promise.allSettled([store.close(), scratch.close(), limiter.close()]);
    throw err;
  }
  const url = baseUrl(server, config.host);
  logger.info({ url, engine: store.engine }, "listening");
  // Shown at once, not with the next batch of lines.
  logger.flush();
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
        await closeGracefully(server, config.shutdownTimeoutMs);
        await Promise.allSettled([store.close(), limiter.close()]);
        logger.info("closed");
        logger.flush();
      })();
      return closing;
    },
  };
}
