/**
 * The integer parameters of each operation's path and query, whose values must be decimal
 * digits (validation/validate.ts checks them on every request).
 */
import { deref, type OpenApiDocument, type SpecOperation } from "@animal-store/openapi";

/** The names of an operation's integer parameters, by where they are. */
export interface IntegerParameters {
  query: string[];
  path: string[];
}

function isInteger(spec: OpenApiDocument, schema: unknown): boolean {
  const type = deref<{ type?: unknown }>(spec, schema).type;
  return type === "integer" || (Array.isArray(type) && type.includes("integer"));
}

/** The integer parameters of `operation`'s query and path. */
export function integerParameters(
  spec: OpenApiDocument,
  operation: Pick<SpecOperation, "parameters">,
): IntegerParameters {
  const names = (where: string) =>
    operation.parameters
      .filter((p) => p.in === where && p.schema !== undefined && isInteger(spec, p.schema))
      .map((p) => String(p.name));
  return { query: names("query"), path: names("path") };
}
