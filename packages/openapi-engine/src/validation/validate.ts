/**
 * The validation step: decodes the path values the router captured (400 for a bad escape), runs
 * the operation's compiled request validator (400 naming each failure; parameters are coerced to
 * their schema types and defaults filled in, in place, so handlers get them once), and refuses a
 * number parameter that is not finite. The validator's errors become the engine's here. Its two
 * number checks (integer syntax before the validator, finite numbers after it) are below.
 */
import { firstLooseInteger, type IntegerParameters } from "../contract/integer-parameters.js";
import { engineErrors } from "../errors.js";
import { step } from "../lifecycle/lifecycle.js";
import type { RequestValidator } from "./request-validation.js";
import { fromValidator } from "./validator-errors.js";

/** What the validation step reads: the operation's path parameter names and its validator. */
export interface ValidationNeeds {
  operation: { names: string[]; integers: IntegerParameters; validateRequest: RequestValidator };
}

/** Validates the request against its operation; the handler then reads what it leaves. */
export const validateRequest = step<ValidationNeeds>(function validateRequest(req, res, next) {
  const { operation } = res.locals;
  const params = req.params as Record<string, unknown>;
  for (const name of operation.names) {
    try {
      params[name] = decodeURIComponent(params[name] as string);
    } catch {
      next(engineErrors.badPathEscape(name));
      return;
    }
  }
  // Express 5's req.query is a getter that parses the query string on every read (with the
  // app's parser, plain-query.ts): read once here and pinned, as the validator's stock path pins
  // it, so the checks below and the validator share one parse.
  const query = req.query as Record<string, unknown>;
  Object.defineProperty(req, "query", {
    configurable: true,
    enumerable: true,
    writable: true,
    value: query,
  });
  const looseInPath = firstLooseInteger(params, operation.integers.path);
  const loose = looseInPath ?? firstLooseInteger(query, operation.integers.query);
  if (loose !== undefined) {
    next(engineErrors.looseInteger(looseInPath === undefined ? "query" : "params", loose));
    return;
  }
  try {
    operation.validateRequest(req, res);
  } catch (err) {
    next(fromValidator(err));
    return;
  }
  // The validator may have replaced the object (its stock path coerces into a new one).
  const inQuery = firstNonFinite(req.query as Record<string, unknown>);
  const inPath = inQuery ?? firstNonFinite(params);
  if (inPath !== undefined) {
    next(engineErrors.nonFiniteNumber(inQuery === undefined ? "path" : "query", inPath));
    return;
  }
  next();
});

/**
 * express-openapi-validator coerces "Infinity", "-Infinity" and "1e400" in integer parameters to
 * ±Infinity and lets them past `minimum`/`maximum`; every numeric parameter of the contract is
 * bounded, so a non-finite number is refused right after the validator, with the 400 the
 * validator should have given (instead of a database error and a 500).
 *
 * The name of the first non-finite number among `values`' own properties, or undefined.
 */
export function firstNonFinite(values: Record<string, unknown> | undefined): string | undefined {
  // for...in without allocating: this runs on every request.
  for (const name in values) {
    const value = values[name];
    if (typeof value === "number" && !Number.isFinite(value)) return name;
  }
  return undefined;
}
