/** The types of the Animal Store's handlers, from the generated operations of the contract. */
import type { OperationId, operations, ParameterDefaults } from "@animal-store/api-types";
import type { OpenApiDocument } from "@animal-store/openapi";
import type { Handler, HandlerRequest, HandlerTable } from "@animal-store/openapi-engine";
import type { PetStore } from "../store/types.js";

/** The handler of one Animal Store operation. */
export type PetHandler<Op extends OperationId> = Handler<operations, Op, ParameterDefaults>;

/** The request an Animal Store handler gets. */
export type PetRequest<Op extends OperationId> = HandlerRequest<operations, Op, ParameterDefaults>;

/** One handler per operation of the Animal Store contract. */
export type Handlers = HandlerTable<operations, ParameterDefaults>;

/** Makes the handler of operation `Op` over the store, for the contract served (`spec`). */
export type HandlerFactory<Op extends OperationId> = (
  store: PetStore,
  spec: OpenApiDocument,
) => PetHandler<Op>;

/**
 * Some handlers, each typed for its operation: what the build compiles. An operation of the
 * contract without one answers 500 `not_implemented` (the engine logs it at start);
 * handlers.check.ts makes it a `pnpm typecheck` error.
 */
export type HandlerFactories = { [Op in OperationId]?: HandlerFactory<Op> };
