/**
 * The Animal Store's handlers, one file per operation of the contract. Each reads its request,
 * validated and with the contract's defaults filled in, and answers through the store.
 *
 * The table may lack an operation the contract has (a spec ahead of the code): the build still
 * succeeds and the server answers that operation 500 `not_implemented`, while `pnpm typecheck`
 * (handlers.check.ts) fails naming it. `pnpm scaffold` writes the missing ones.
 */
import { loadBundledSpec, type OpenApiDocument } from "@animal-store/openapi";
import type { PetStore } from "../store/types.js";
import { createPet } from "./create-pet.js";
import { getPet } from "./get-pet.js";
import { listPets } from "./list-pets.js";
import type { HandlerFactories, Handlers } from "./types.js";

export type { HandlerFactory, Handlers, PetHandler, PetRequest } from "./types.js";

/** Every handler the server has, by operationId (scaffold adds its entries above the marker). */
export const handlerFactories = {
  listPets,
  createPet,
  getPet,
  // scaffold: new handlers above this line
} satisfies HandlerFactories;

/**
 * The Animal Store's handlers over `store`, for the contract served (the bundled one unless
 * given): one per operation it implements.
 */
export function createHandlers(
  store: PetStore,
  spec: OpenApiDocument = loadBundledSpec().spec,
): Partial<Handlers> {
  const handlers: Record<string, unknown> = {};
  for (const [operationId, factory] of Object.entries(handlerFactories)) {
    // Each factory is typed for its own operation; here only the call's arguments matter.
    handlers[operationId] = (factory as (store: PetStore, spec: OpenApiDocument) => unknown)(
      store,
      spec,
    );
  }
  return handlers as Partial<Handlers>;
}
