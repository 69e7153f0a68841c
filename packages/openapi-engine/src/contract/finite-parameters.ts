/**
 * express-openapi-validator coerces "Infinity", "-Infinity" and "1e400" in integer parameters to
 * ±Infinity and lets them past `minimum`/`maximum`; every numeric parameter of the contract is
 * bounded, so a non-finite number is refused here, right after the validator, with the 400 the
 * validator should have given (instead of a database error and a 500).
 */
import type { NextFunction, Request, Response } from "express";
import { engineErrors } from "../errors.js";

interface ValidatedRequest {
  openapi?: { pathParams?: Record<string, unknown> };
}

/** The name of the first non-finite number among `values`' own properties, or undefined. */
function firstNonFinite(values: Record<string, unknown> | undefined): string | undefined {
  // for...in without allocating: this runs on every request.
  for (const name in values) {
    const value = values[name];
    if (typeof value === "number" && !Number.isFinite(value)) return name;
  }
  return undefined;
}

/** Middleware (after the validator): 400 validation_failed for a non-finite number parameter. */
export function rejectNonFiniteParameters(req: Request, _res: Response, next: NextFunction): void {
  const inQuery = firstNonFinite(req.query as Record<string, unknown>);
  const inPath = inQuery ?? firstNonFinite((req as ValidatedRequest).openapi?.pathParams);
  if (inPath === undefined) {
    next();
    return;
  }
  const where = inQuery === undefined ? "path" : "query";
  next(engineErrors.nonFiniteNumber(where, inPath));
}
