/**
 * Deprecated operations, as the contract declares them (`deprecated: true`, `x-deprecated-since`,
 * `x-sunset`, `x-replacement`): every answer of such an operation carries Deprecation, Sunset and
 * Link, and from the sunset instant on the operation answers 410 `gone`.
 *
 * @see https://spec.openapis.org/oas/v3.1.0#operation-object (`deprecated`)
 */
import type { CompiledDeprecation } from "../contract/contract.js";
import { engineErrors } from "../errors.js";
import { step } from "../lifecycle/lifecycle.js";

/** What the deprecation steps read: the operation's deprecation, if it has one. */
export interface DeprecationNeeds {
  operation: { deprecation: CompiledDeprecation | undefined };
}

/**
 * Right after routing: sets the deprecation headers, so that every answer of a deprecated
 * operation (401 and 429 included) carries them.
 */
export const deprecationHeaders = step<DeprecationNeeds>(
  function deprecationHeaders(_req, res, next) {
    const headers = res.locals.operation.deprecation?.headers;
    if (headers !== undefined) for (const [name, value] of headers) res.setHeader(name, value);
    next();
  },
);

/**
 * After rate limiting and the credential check (so a 410 is counted and carries X-RateLimit-*):
 * refuses a sunset operation with 410 from its sunset instant on.
 */
export function refuseAfterSunset(clock: () => number) {
  return step<DeprecationNeeds>(function refuseAfterSunset(_req, res, next) {
    const deprecation = res.locals.operation.deprecation;
    if (deprecation?.sunsetMs !== undefined && clock() >= deprecation.sunsetMs) {
      next(engineErrors.gone(deprecation.goneMessage));
      return;
    }
    next();
  });
}
