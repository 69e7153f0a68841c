/**
 * An application's API app in-process (createApiApp: no warm-up, no connection caps) on a scratch
 * SQLite file or a given store, listening on a free loopback port, with a key ready: for suites
 * that put their own limiter, logger, clock, key lookup or store in.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { LoadedSpec } from "@animal-store/openapi";
import { pino } from "pino";
import { createApiApp } from "../api-app.js";
import type { Application, EngineStore } from "../application.js";
import { issueApiKey, type KeyLookup, type NewKeyOptions } from "../auth/security.js";
import { type AppConfig, loadConfig } from "../config.js";
import { compileContract } from "../contract/contract.js";
import { expressMessageClasses } from "../express-messages.js";
import type { Logger } from "../metrics/observe.js";
import { createMemoryRateLimiter, type RateLimiter } from "../rate-limit/index.js";
import { roomiestPlan, scratchDirectory, scratchEnv } from "./scratch.js";

/** What a scratch app is built on; anything left out is the scratch default. */
export interface ScratchAppOptions<S> {
  /**
   * Its store, which stays the caller's to close; default the application's store on a scratch
   * file, closed with the app.
   */
  store?: S;
  /** More environment for its configuration (on top of test mode and silent logs). */
  env?: Record<string, string>;
  /** Default: the contract's ban rule, counted in-process. Closed with the app. */
  limiter?: RateLimiter;
  /** Default: silent. */
  logger?: Logger;
  clock?: () => number;
  /** Another bundled contract to serve; default the application's. */
  spec?: LoadedSpec;
  keyLookup?: KeyLookup;
}

/** A listening scratch app. */
export interface ScratchApp<S> {
  /** The origin, e.g. http://127.0.0.1:41234. */
  url: string;
  /** The API base: the origin and the contract's base path. */
  apiUrl: string;
  store: S;
  config: AppConfig;
  /** A key of the roomiest plan with published limits. */
  key: string;
  /** A new key; the plan defaults to the roomiest with published limits. */
  createKey(options?: Partial<NewKeyOptions>): Promise<string>;
  /** Stops listening (cutting keep-alive sockets), closes the limiter and a scratch store, removes files. */
  close(): Promise<void>;
}

/** Starts `application`'s app in-process; resolves once it listens, with its first key. */
export async function startScratchApp<S extends EngineStore>(
  application: Application<S>,
  options: ScratchAppOptions<S> = {},
): Promise<ScratchApp<S>> {
  const scratch = scratchDirectory("scratch-app-");
  const file = join(scratch.dir, "scratch.db");
  const config = loadConfig(scratchEnv(file, options.env), application.names);
  const spec = options.spec ?? application.spec;
  const contract = compileContract(spec);
  const policy = contract.rateLimit;
  const store = options.store ?? (await application.openStore(config.database));
  try {
    await application.checkStorage?.(store, contract.spec);
  } catch (err) {
    if (!options.store) await store.close();
    throw err;
  }
  const limiter = options.limiter ?? createMemoryRateLimiter({ ban: policy.ban });
  let app: Awaited<ReturnType<typeof createApiApp>>;
  try {
    app = await createApiApp(application, {
      store,
      limiter,
      config,
      logger: options.logger ?? pino({ level: "silent" }),
      spec,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.keyLookup ? { keyLookup: options.keyLookup } : {}),
    });
  } catch (err) {
    // A contract it cannot serve (a scheme it cannot check): nothing is left open.
    await Promise.allSettled([limiter.close(), options.store ? undefined : store.close()]);
    scratch.remove();
    throw err;
  }
  // Requests and responses built as startEngine's server builds them (http-server.ts).
  const server: Server = createServer(expressMessageClasses(app.express), app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const createKey = async (opts: Partial<NewKeyOptions> = {}) =>
    (await issueApiKey(store, policy, { plan: roomiestPlan(policy), name: "scratch", ...opts }))
      .key;
  return {
    url,
    apiUrl: `${url}${contract.basePath}`,
    store,
    config,
    key: await createKey(),
    createKey,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([limiter.close(), options.store ? undefined : store.close()]);
      scratch.remove();
    },
  };
}
