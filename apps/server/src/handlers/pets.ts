/** Handlers of the pets operations. */
import type { Store } from "../store/index.js";
import type { Handler } from "./types.js";

/** listPets: one page in ascending id order; `limit` defaults to the contract's default. */
export function listPetsHandler(store: Store, defaultLimit: number): Handler<"listPets"> {
  return async ({ query }) => ({
    status: 200,
    body: await store.listPets({ limit: query.limit ?? defaultLimit, status: query.status }),
  });
}

/** createPet: stores the validated body; 201 once the write is durable. */
export function createPetHandler(store: Store): Handler<"createPet"> {
  return async ({ body }) => ({ status: 201, body: await store.createPet(body) });
}

/** getPet: the pet, or 404 not_found. */
export function getPetHandler(store: Store): Handler<"getPet"> {
  return async ({ params }) => {
    const pet = await store.getPet(params.petId);
    if (pet) return { status: 200, body: pet };
    return {
      status: 404,
      body: { code: "not_found", message: `Pet ${params.petId} not found.`, status: 404 },
    };
  };
}
