/** Handlers of the pets operations. */
import type { Store } from "../store/index.js";
import type { Handler } from "./types.js";

/** listPets: one page in ascending id order; `limit` defaults to the contract's default. */
export function listPetsHandler(store: Store, defaultLimit: number): Handler<"listPets"> {
  return async ({ query, reply }) =>
    reply(200, await store.listPets({ limit: query.limit ?? defaultLimit, status: query.status }));
}

/** createPet: stores the validated body; 201 once the write is durable. */
export function createPetHandler(store: Store): Handler<"createPet"> {
  return async ({ body, reply }) => reply(201, await store.createPet(body));
}

/** getPet: the pet, or 404 not_found. */
export function getPetHandler(store: Store): Handler<"getPet"> {
  return async ({ params, reply }) => {
    const pet = await store.getPet(params.petId);
    if (pet) return reply(200, pet);
    return reply(404, {
      code: "not_found",
      message: `Pet ${params.petId} not found.`,
      status: 404,
    });
  };
}
