/**
 * The strict-integer rule, the project's choice, in one place: which parameters it covers (the
 * integer parameters of each operation's path and query, compiled once with the contract) and
 * what it accepts (decimal digits), checked by the validation step (validation/validate.ts) on
 * every request before the validator coerces the text away.
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

/**
 * Integers in a URL are decimal digits. The validator coerces parameters with JavaScript's
 * number syntax, so `0x10` became 16, `1e2` 100, `+1` and ` 5` (`%205`) 1 and 5: a client's
 * typo or a probe answered as if it were a number. Before the validator runs, every integer
 * parameter of the path and query must be decimal digits without a leading zero (`0` itself
 * aside), with a minus sign only before a nonzero value; anything else is a 400 naming it.
 */
const DECIMAL = /^(?:0|-?[1-9][0-9]*)$/;

/** The first of `names` whose value in `values` would be coerced to an integer, yet is not decimal. */
export function firstLooseInteger(
  values: Record<string, unknown>,
  names: readonly string[],
): string | undefined {
  for (const name of names) {
    const value = values[name];
    // What is no number at all ("abc", "1.5") is left to the validator's own message.
    if (typeof value === "string" && !DECIMAL.test(value) && Number.isInteger(Number(value))) {
      return name;
    }
  }
  return undefined;
}
