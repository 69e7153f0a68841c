import { configFrom, createHandlers, openStore } from "@animal-store/server";

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

// What the server's runHandlers passes as `reply`: handlers answer through it.
const reply = (status: number, body: unknown): HandlerResult => ({ status, body });

type CallableHandler = (request: Record<string, unknown>) => Promise<HandlerResult>;

// The baselines have no auth; the handlers still take the caller's key record.
const BASELINE_KEY = {
  id: "key_baseline",
  name: "baseline",
  plan: "baseline",
  perMinute: null,
  perDay: null,
  createdAt: new Date(0).toISOString(),
  revokedAt: null,
};

/** Opens the store `env` configures (DATABASE_URL, as the server reads it) with the server's handlers. */
export async function openBaselineHandlers(
  env: Record<string, string | undefined>,
): Promise<BaselineHandlers> {
  const store = await openStore(configFrom(env).database);
  const handlers = createHandlers(store) as unknown as Record<string, CallableHandler>;
  const call = async (id: string, request: Record<string, unknown>) => {
    const handler = handlers[id];
    if (handler === undefined) throw new Error(`the server has no ${id} handler`);
    return handler({
      params: {},
      caller: { kind: "key", key: BASELINE_KEY },
      requestId: "baseline",
      reply,
      ...request,
    });
  };
  return {
    listPets: (limit, status) => call("listPets", { query: { limit, status } }),
    createPet: (input) => call("createPet", { query: {}, body: input }),
  };
}
