/**
 * express-openapi-validator coerces "Infinity", "-Infinity" and "1e400" in integer parameters to
 * ±Infinity and lets them past `minimum`/`maximum`; every numeric parameter of the contract is
 * bounded, so a non-finite number is refused right after the validator, with the 400 the
 * validator should have given (instead of a database error and a 500).
 */

/** The name of the first non-finite number among `values`' own properties, or undefined. */
export function firstNonFinite(values: Record<string, unknown> | undefined): string | undefined {
  // for...in without allocating: this runs on every request.
  for (const name in values) {
    const value = values[name];
    if (typeof value === "number" && !Number.isFinite(value)) return name;
  }
  return undefined;
}
