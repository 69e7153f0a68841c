/**
 * An application's real server (startEngine: warm-up, connection caps and all) on a scratch
 * SQLite file, listening on a free loopback port, with a key ready: what the suites of other
 * packages (client, web app, docs, gates, fuzzing) run against. Optionally with a store that
 * fails on demand (faultable-store.ts).
 */
import { join } from "node:path";
import type { LoadedSpec } from "@animal-store/openapi";
import type { Application, EngineStore } from "../application.js";
import type { NewKeyOptions } from "../auth/security.js";
import { type RunningServer, startEngine } from "../start.js";
import { faultableStore, type StoreFault, unreachableStore } from "./faultable-store.js";
import { roomiestPlan, scratchDirectory, scratchEnv } from "./scratch.js";

/** How a scratch server starts. */
export interface ScratchServerOptions {
  /** Names its database file and its first key. */
  name?: string;
  /** More environment (CORS_ORIGINS, TRUST_PROXY, DOCS_HTML_PATH, ...). */
  env?: Record<string, string>;
  /** Milliseconds since the epoch for rate-limit windows and sunsets; default Date.now. */
  clock?: () => number;
  /** Another bundled contract to serve; default the application's. */
  spec?: LoadedSpec;
  /** The first key's plan (default the roomiest with published limits) and own limits. */
  key?: Partial<Omit<NewKeyOptions, "name">>;
  /** Handlers get a store that fails on demand (`setFault`); keys keep the healthy one. */
  faultable?: boolean;
}

/** A running scratch server. */
export interface ScratchServer<S> {
  server: RunningServer<S>;
  /** The origin, e.g. http://127.0.0.1:41234. */
  url: string;
  /** The API base: the origin and the contract's base path. */
  apiUrl: string;
  /** The first key, made at start. */
  key: string;
  createKey(options: NewKeyOptions): Promise<string>;
  /** What the handlers' store calls do from now on (a faultable server only). */
  setFault(fault: StoreFault): void;
  /** Stops the server and removes its files. */
  close(): Promise<void>;
}

/** Starts `application` on a scratch SQLite file; resolves once it listens, with its first key. */
export async function startScratchServer<S extends EngineStore>(
  application: Application<S>,
  options: ScratchServerOptions = {},
): Promise<ScratchServer<S>> {
  const name = options.name ?? "scratch";
  const scratch = scratchDirectory(`${name}-`);
  let fault: StoreFault = "none";
  const unreachable = options.faultable ? await unreachableStore(application) : undefined;
  try {
    const server = await startEngine(
      application,
      scratchEnv(join(scratch.dir, `${name}.db`), options.env),
      {
        ...(options.clock ? { clock: options.clock } : {}),
        ...(options.spec ? { spec: options.spec } : {}),
        ...(unreachable
          ? { handlerStore: (store: S) => faultableStore(store, unreachable, () => fault) }
          : {}),
      },
    );
    const plan = options.key?.plan ?? roomiestPlan(server.contract.rateLimit);
    const key = await server.createKey({ ...options.key, plan, name }).catch(async (err) => {
      await server.close();
      throw err;
    });
    return {
      server,
      url: server.url,
      apiUrl: `${server.url}${server.contract.basePath}`,
      key,
      createKey: (opts) => server.createKey(opts),
      setFault(next) {
        if (!unreachable) throw new Error("setFault needs a server started with faultable: true");
        fault = next;
      },
      async close() {
        await server.close();
        await unreachable?.close();
        scratch.remove();
      },
    };
  } catch (err) {
    await unreachable?.close();
    scratch.remove();
    throw err;
  }
}
