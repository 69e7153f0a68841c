/**
 * Compiled by `pnpm typecheck` (tsconfig.json), never by the build (tsconfig.build.json excludes
 * *.check.ts): the build must succeed with a handler missing, so the server starts and answers it
 * `not_implemented`, while typecheck, and so CI, fails naming the operation, e.g.
 * `Property 'deletePet' is missing in type ... but required in type 'CompleteTable'`.
 */
import type { OperationId } from "@animal-store/api-types";
import { handlerFactories } from "./index.js";
import type { HandlerFactory } from "./types.js";

/** A handler for every operation of the contract. */
type CompleteTable = { [Op in OperationId]: HandlerFactory<Op> };

export const completeHandlerTable: CompleteTable = handlerFactories;
