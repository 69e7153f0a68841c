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
