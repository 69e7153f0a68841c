/**
 * Deprecated operations, as the contract declares them (`deprecated: true`, `x-deprecated-since`,
 * `x-sunset`, `x-replacement`): every answer of such an operation carries Deprecation, Sunset and
 * Link, and from the sunset instant on the operation answers 410 `gone`.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { engineErrors } from "../errors.js";

/**
 * Middleware, right after the operation is resolved: sets the deprecation headers, so that every
 * answer of a deprecated operation (401 and 429 included) carries them.
 */
export function deprecationHeaders(_req: Request, res: Response, next: NextFunction): void {
  const headers = res.locals.operation?.deprecation?.headers;
  if (headers !== undefined) for (const [name, value] of headers) res.setHeader(name, value);
  next();
}

/**
 * Middleware, after rate limiting and the credential check (so a 410 is counted and carries
 * X-RateLimit-*): refuses a sunset operation with 410 from its sunset instant on.
 */
export function refuseAfterSunset(options: { clock: () => number }): RequestHandler {
  return function refuseAfterSunsetMiddleware(_req, res, next): void {
    const deprecation = res.locals.operation?.deprecation;
    if (deprecation?.sunsetMs !== undefined && options.clock() >= deprecation.sunsetMs) {
      next(engineErrors.gone(deprecation.goneMessage));
      return;
    }
    next();
  };
}
