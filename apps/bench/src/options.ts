/** The bench's command-line values, read strictly: a bad value stops the run before it starts. */

/**
 * `value` of `--name=value` as a whole number above 0 (rounds, runs, seconds), or undefined when
 * the option was not given. Anything else throws: NaN or 0 would reach wrk and the loops as a run
 * of nothing, and its figures would be reported as if measured.
 */
export function wholeNumberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(value)) {
    throw new Error(`--${name} takes a whole number above 0, not "${value}"`);
  }
  return Number(value);
}
