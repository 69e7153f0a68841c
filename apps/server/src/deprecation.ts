/**
 * The deprecated getPet: every response carries Deprecation, Sunset and Link to the successor;
 * from the sunset instant on, the operation answers 410 `gone`.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { ApiHttpError } from "./errors.js";
import { GET_PET_DEPRECATED_SINCE, GET_PET_SUCCESSOR, GET_PET_SUNSET } from "./sunset.js";

/** Header values of the deprecated operation (RFC 9745, RFC 8594, RFC 8288). */
export const GET_PET_DEPRECATION_HEADERS: Readonly<Record<string, string>> = {
  Deprecation: `@${Math.floor(GET_PET_DEPRECATED_SINCE.getTime() / 1000)}`,
  Sunset: GET_PET_SUNSET.toUTCString(),
  Link: `<${GET_PET_SUCCESSOR}>; rel="successor-version"`,
};

const SUNSET_MS = GET_PET_SUNSET.getTime();
const GONE_MESSAGE =
  `GET /pets/{petId} was removed on ${GET_PET_SUNSET.toISOString().slice(0, 10)}; ` +
  "use GET /pets?status= instead.";

function setDeprecationHeaders(res: Response): void {
  for (const [name, value] of Object.entries(GET_PET_DEPRECATION_HEADERS)) {
    res.setHeader(name, value);
  }
}

/**
 * Middleware for GET /v1/pets/:petId that only sets the three headers: mounted before
 * authentication and rate limiting, so getPet's 401s and 429s carry them too.
 */
export function getPetDeprecationHeaders(_req: Request, res: Response, next: NextFunction): void {
  setDeprecationHeaders(res);
  next();
}

/**
 * Middleware for GET /v1/pets/:petId: sets the three headers and, from the sunset instant on,
 * refuses with 410. Mounted after rate limiting, so the 410 is counted and carries X-RateLimit-*.
 */
export function getPetDeprecation(options: { clock: () => number }): RequestHandler {
  return function deprecation(_req: Request, res: Response, next: NextFunction): void {
    setDeprecationHeaders(res);
    next(options.clock() >= SUNSET_MS ? new ApiHttpError(410, "gone", GONE_MESSAGE) : undefined);
  };
}
