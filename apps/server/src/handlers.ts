/**
 * The Animal Store's handlers, one per operation of the contract (the table's type makes a missing
 * one a compile error). Each reads its request, validated and with the contract's defaults filled
 * in, and answers through the store.
 */
import type { OperationId, operations, ParameterDefaults } from "@animal-store/api-types";
import type { Handler, HandlerRequest, HandlerTable } from "@animal-store/openapi-engine";
import { nextLink, readPage } from "./paging/page.js";
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
    /** One page in ascending id order, with a `next` link unless it is the last; 400 on a bad cursor. */
    listPets: async ({ query, reply }) => {
      const { limit, cursor, ...filter } = query;
      const page = await readPage({ limit, cursor, filter }, ({ limit, afterId }) =>
        store.listPets({ limit, status: filter.status, afterId }),
      );
      if (!page.ok) return reply(400, page.error);
      if (page.next === undefined) return reply(200, page.items);
      // limit first, the filter, the cursor last: the same link whatever order the request used.
      const next = { limit, ...filter, cursor: page.next } satisfies typeof query;
      return reply(200, page.items, { Link: nextLink(next) });
    },
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
