/**
 * express-openapi-validator coerces "Infinity", "-Infinity" and "1e400" in integer parameters to
 * ±Infinity and lets them past `minimum`/`maximum`; every numeric parameter of the contract is
 * bounded, so a non-finite number is refused here, right after the validator, with the 400 the
 * validator should have given (instead of a database error and a 500).
 */
import type { NextFunction, Request, Response } from "express";
import { ApiHttpError } from "./errors.js";

interface ValidatedRequest {
  openapi?: { pathParams?: Record<string, unknown> };
}

/** Middleware (after the validator): 400 validation_failed for a non-finite number parameter. */
export function rejectNonFiniteParameters(req: Request, _res: Response, next: NextFunction): void {
  const path = (req as ValidatedRequest).openapi?.pathParams ?? {};
  for (const [where, values] of [
    ["query", req.query as Record<string, unknown>],
    ["path", path],
  ] as const) {
    for (const [name, value] of Object.entries(values ?? {})) {
      if (typeof value === "number" && !Number.isFinite(value)) {
        next(
          new ApiHttpError(400, "validation_failed", `${where}/${name} must be a finite number`),
        );
        return;
      }
    }
  }
  next();
}
