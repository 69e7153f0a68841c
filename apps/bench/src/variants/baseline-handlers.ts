/**
 * The baselines run the server's own store and handlers (same SQL, same statement cache, same
 * fsync per write), so the only difference between them and the shipped server is the middleware
 * stack. The modules are loaded from the server's build by file, as the package exports only its
 * public API; the types below are the few members the baselines call.
 */
/** A pet to create, as the baselines pass it on unvalidated. */
export interface NewPetInput {
  name: string;
  categoryId: number;
  status?: string;
}

/** What a server handler answers: a documented status and its body. */
export interface HandlerResult {
  status: number;
  body: unknown;
}

/** The server's listPets and createPet handlers over its store. */
export interface BaselineHandlers {
  listPets(limit: number, status: string | undefined): Promise<HandlerResult>;
  createPet(input: NewPetInput): Promise<HandlerResult>;
}

type ServerHandler = (request: Record<string, unknown>) => Promise<HandlerResult>;
interface ServerStoreModule {
  openStore(database: unknown): Promise<unknown>;
}
interface ServerConfigModule {
  loadConfig(env: Record<string, string | undefined>): { database: unknown };
}
interface ServerHandlersModule {
  createHandlers(
    store: unknown,
    options: { defaultListLimit: number },
  ): Record<string, ServerHandler>;
}
interface ServerSpecModule {
  loadBundledSpec(): { spec: unknown };
  defaultListLimit(spec: unknown): number;
}

// This package's own link to the server (pnpm workspace), then into its build.
const serverDist = new URL("../../node_modules/@animal-store/server/dist/", import.meta.url);
const load = <T>(file: string) => import(new URL(file, serverDist).href) as Promise<T>;

// The baselines have no auth; the handlers still take the caller's key record.
const BASELINE_KEY = {
  id: "key_baseline",
  name: "baseline",
  plan: "enterprise",
  perMinute: null,
  perDay: null,
  createdAt: new Date(0).toISOString(),
  revokedAt: null,
};

// What the server's runHandlers passes as `reply`: handlers answer through it.
const reply = (status: number, body: unknown): HandlerResult => ({ status, body });

/** Opens the store `env` configures (DATABASE_URL, as the server reads it) with the server's handlers. */
export async function openBaselineHandlers(
  env: Record<string, string | undefined>,
): Promise<BaselineHandlers> {
  const [{ loadConfig }, { openStore }, { createHandlers }, spec] = await Promise.all([
    load<ServerConfigModule>("config.js"),
    load<ServerStoreModule>("store/index.js"),
    load<ServerHandlersModule>("handlers/index.js"),
    load<ServerSpecModule>("spec.js"),
  ]);
  const store = await openStore(loadConfig(env).database);
  const handlers = createHandlers(store, {
    defaultListLimit: spec.defaultListLimit(spec.loadBundledSpec().spec),
  });
  const call = async (id: string, request: Record<string, unknown>) => {
    const handler = handlers[id];
    if (handler === undefined) throw new Error(`the server has no ${id} handler`);
    return handler({ params: {}, apiKey: BASELINE_KEY, requestId: "baseline", reply, ...request });
  };
  return {
    listPets: (limit, status) => call("listPets", { query: { limit, status } }),
    createPet: (input) => call("createPet", { query: {}, body: input }),
  };
}
