/**
 * JSON serializers for the handlers' answers, compiled at start-up with fast-json-stringify from
 * the contract's response schemas (one per operation and status). They write only the properties
 * the schema declares, in a code path built for that shape, and skip Express's res.json/res.send
 * work. Used when responses are not validated (production); with validation on, res.json stays so
 * the validator sees every body.
 */
import { deref, type JsonObject } from "@animal-store/openapi";
import build from "fast-json-stringify";
import type { Contract } from "./contract.js";

/** Serializers keyed by `${operationId} ${status}`. */
export type ResponseSerializers = ReadonlyMap<string, (body: unknown) => string>;

/** The key a serializer is stored under. */
export function serializerKey(operationId: string, status: number | string): string {
  return `${operationId} ${status}`;
}

/** Compiles a serializer for every JSON response schema of every operation of the contract. */
export function compileResponseSerializers(
  contract: Pick<Contract, "spec" | "operations">,
): ResponseSerializers {
  const serializers = new Map<string, (body: unknown) => string>();
  // Schema $refs point into components; each serializer gets them as its root's definitions.
  const components = { schemas: contract.spec.components?.schemas };
  for (const operation of contract.operations) {
    for (const response of operation.responses) {
      const schema = deref<JsonObject | undefined>(
        contract.spec,
        response.content["application/json"]?.schema,
      );
      if (schema === undefined) continue;
      const serialize = build({ ...schema, components } as never);
      serializers.set(serializerKey(operation.operationId, response.status), serialize);
    }
  }
  return serializers;
}
