/** The `default` a contract gives an operation's parameter. */
import { deref, type JsonObject } from "@animal-store/openapi";
import type { Contract } from "./contract.js";

/** The default of parameter `name` of `operationId`; throws naming what the contract lacks. */
export function parameterDefault(contract: Contract, operationId: string, name: string): unknown {
  const operation = contract.operations.find((op) => op.operationId === operationId);
  const parameter = operation?.parameters.find((p) => p.name === name);
  const schema = deref<JsonObject | undefined>(contract.spec, parameter?.schema);
  if (schema?.default === undefined) {
    throw new Error(`the contract gives ${operationId}'s parameter ${name} no default`);
  }
  return schema.default;
}
