/**
 * Requests of every operation of the contract, built from its own examples (the server's
 * `exampleRequest`), so the gate's "every operation" scenarios list no operation by hand.
 */
import { exampleRequest, loadBundledSpec, operationPagination } from "@animal-store/openapi";
import { compileContract, type ServedOperation } from "@animal-store/openapi-engine";
import type { ScenarioRequest } from "./exchange.js";

/** The bundled contract, compiled as the server compiles it. */
export const contract = compileContract(loadBundledSpec());

/** A valid call of `op` from its examples, path relative to the API base, with `apiKey`. */
export function exampleScenario(op: ServedOperation, apiKey?: string): ScenarioRequest {
  const request = exampleRequest(contract.spec, contract.basePath, op);
  return {
    method: request.method,
    path: request.path.slice(contract.basePath.length),
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(request.body === undefined ? {} : { json: JSON.parse(request.body) }),
  };
}

/** The operations that ask for a credential. */
export const securedOperations = contract.operations.filter((op) => op.requiresCredential);

/** The deprecated operations with a sunset. */
export const sunsetOperations = contract.operations.filter(
  (op) => op.deprecation?.sunsetMs !== undefined,
);

/** The operation that pages, its cursor parameter and the codes of its bad cursors. */
export function pagedOperation(): {
  op: ServedOperation;
  cursorParameter: string;
  codes: { invalid: string; otherFilter: string };
} {
  const op = contract.operations.find((o) => operationPagination(contract.spec, o));
  const pagination = op && operationPagination(contract.spec, op);
  if (!op || !pagination) throw new Error("the contract has no operation with x-pagination");
  return { op, cursorParameter: pagination.cursorParameter, codes: pagination.codes };
}
