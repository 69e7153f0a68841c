/**
 * The Animal Store's handlers, one per operation of the contract (the table's type makes a missing
 * one a compile error). Each reads its request, validated and with the contract's defaults filled
 * in, and answers through the store.
 */
import type { OperationId, operations, ParameterDefaults } from "@animal-store/api-types";
import type { Handler, HandlerRequest, HandlerTable } from "@animal-store/openapi-engine";
import type { PetStore } from "./store/types.js";

/** The handler of one Animal Store operation. */
export type PetHandler<Op extends OperationId> = Handler<operations, Op, ParameterDefaults>;

/** The request an Animal Store handler gets. */
export type PetRequest<Op extends OperationId> = HandlerRequest<operations, Op, ParameterDefaults>;

/** One handler per operation of the Animal Store contract. */
export type Handlers = HandlerTable<operations, ParameterDefaults>;

/** The Animal Store's handlers over `store`. */
export function createHandlers(store: PetStore): Handlers {
  return {
    /** One page in ascending id order. */
    listPets: async ({ query, reply }) =>
      reply(200, await store.listPets({ limit: query.limit, status: query.status })),
    /** Stores the validated body; 201 once the write is durable. */
    createPet: async ({ body, reply }) => reply(201, await store.createPet(body)),
    /** The pet, or 404 not_found. */
    getPet: async ({ params, reply }) => {
      const pet = await store.getPet(params.petId);
      if (pet) return reply(200, pet);
      return reply(404, {
        code: "not_found",
        message: `Pet ${params.petId} not found.`,
        status: 404,
      });
    },
  } satisfies { [Op in OperationId]: PetHandler<Op> };
}
