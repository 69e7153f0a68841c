/**
 * startServer: config → store → app → warm-up → listen, and a graceful close. Used by main.ts
 * (`pnpm start`) and by other packages' tests, benchmarks and gates (PORT=0 allowed).
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createKeyLookup, issueApiKey, type NewKeyOptions } from "./api-keys.js";
import { createApp } from "./app.js";
import type { ApiKeyRecord, KeyLookup } from "./auth.js";
import { answerClientError } from "./client-errors.js";
import { type AppConfig, loadConfig } from "./config.js";
import { expressMessageClasses } from "./express-messages.js";
import { createLogger, type Logger } from "./logger.js";
import { createRateLimiter } from "./rate-limit/index.js";
import { openStore, type Store } from "./store/index.js";
import { WARM_UP_KEY_ID, warmUp, withDryRunWrites } from "./warm-up.js";

/** A listening server. */
export interface RunningServer {
  /** Base address, e.g. http://127.0.0.1:41234 (the API is under `${url}/v1`). */
  url: string;
  /** Creates an API key in this server's store and returns the plaintext key. */
  createKey(opts: NewKeyOptions): Promise<string>;
  /** Graceful: stop accepting, finish in-flight requests, close the store and the limiter. */
  close(): Promise<void>;
  config: AppConfig;
  store: Store;
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

/** What a caller may replace besides the environment (tests and gates). */
export interface StartOptions {
  /** Milliseconds since the epoch for rate-limit windows and sunsets; default Date.now. */
  clock?: () => number;
}

/** Starts a real server on `env`; resolves once listening and warmed up. */
export async function startServer(
  env: Record<string, string | undefined> = process.env,
  options: StartOptions = {},
): Promise<RunningServer> {
  const config = loadConfig(env);
  const logger = createLogger(config);
  const store = await openStore(config.database);
  const limiter = await createRateLimiter(config.rateLimit, logger);
  // A one-off key, valid only while the app warms up in-process, so the validator compiles its
  // schemas before the first real request; no key is written to the store for it.
  const warmUpKey = `warmup_${randomBytes(24).toString("base64url")}`;
  const warmUpRecord: ApiKeyRecord = {
    id: WARM_UP_KEY_ID,
    name: "warm-up",
    plan: "business",
    perMinute: null,
    perDay: null,
    createdAt: new Date().toISOString(),
    revokedAt: null,
  };
  let warming = true;
  const storeLookup = createKeyLookup(store, config.apiKeyCacheTtlMs);
  const keyLookup: KeyLookup = (key) =>
    warming && key === warmUpKey ? warmUpRecord : storeLookup(key);
  const app = createApp({
    store: withDryRunWrites(store, () => warming),
    limiter,
    clock: options.clock ?? Date.now,
    config,
    logger,
    keyLookup,
  });
  // Requests and responses are built with Express's prototypes (express-messages.ts).
  const messageClasses = expressMessageClasses(app);
  const server = createServer(
    // Bounded so a slow client cannot hold a connection open for minutes (Node's defaults).
    { headersTimeout: 20_000, requestTimeout: 30_000, ...messageClasses },
    app,
  );
  server.on("clientError", answerClientError);
  try {
    await warmUp(app, warmUpKey, messageClasses);
    warming = false;
    await listen(server, config.port, config.host);
  } catch (err) {
    await store.close();
    await limiter.close();
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
    store,
    logger,
    createKey: async (opts) => (await issueApiKey(store, opts)).key,
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
