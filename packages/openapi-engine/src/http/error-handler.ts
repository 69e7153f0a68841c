/**
 * The one error handler, last in the app. It sees three kinds of error: the engine's own
 * (`EngineError`, answered as it says), a backing store's outage (`StoreUnavailableError`, 503),
 * and anything else, which is a bug (500 with the request id). Whatever leaves is the contract's
 * `Error` body, `application/json`, with `status` equal to the HTTP status; headers already on
 * the response (rate limits, CORS) are kept.
 */
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import type { ResponseConformance } from "../contract/response-conformance.js";
import { EngineError, engineErrors, StoreUnavailableError } from "../errors.js";

function send(res: Response, error: EngineError): void {
  res.status(error.status);
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  // res.json: on validated operations the response validator checks error bodies too (a status
  // the operation does not document comes back here once as a 500).
  res.json(error.toBody());
}

/**
 * Express error middleware: the last one in the app. With `conformance` (development and tests),
 * an error answer its operation does not document, or one without a header the contract
 * requires, becomes a logged 500.
 */
export function errorHandler(logger: Logger, conformance?: ResponseConformance) {
  const logFailure = (req: Request, requestId: string, err: unknown) => {
    const e = err instanceof Error ? err : new Error(String(err));
    // Name, message and driver code only: no stack, no SQL, no request headers.
    // (Not under `err`: pino's err serializer would add the stack back.)
    const detail = { type: e.name, message: e.message, code: (e as { code?: unknown }).code };
    logger.error(
      { reqId: requestId, path: req.originalUrl.split("?")[0], error: detail },
      "request failed",
    );
  };
  return function errorHandlerMiddleware(
    err: unknown,
    req: Request,
    res: Response,
    _next: NextFunction,
  ): void {
    const requestId = res.locals.requestId ?? "unknown";
    let error: EngineError;
    if (err instanceof EngineError) {
      error = err;
      if (error.status >= 500) logFailure(req, requestId, err);
    } else {
      logFailure(req, requestId, err);
      error =
        err instanceof StoreUnavailableError
          ? engineErrors.serviceUnavailable()
          : engineErrors.internal(requestId);
    }
    if (res.headersSent) {
      // Too late for a clean answer: cut the connection rather than send a broken body.
      res.destroy();
      return;
    }
    const operation = res.locals.operation;
    if (conformance && operation && error.status !== 500) {
      for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
      const violations = conformance.violations(operation, error.status, (name) =>
        res.getHeader(name),
      );
      if (violations.length > 0) {
        logFailure(
          req,
          requestId,
          new Error(`the response breaks the contract: ${violations.join("; ")}`),
        );
        for (const name of Object.keys(error.headers)) res.removeHeader(name);
        error = engineErrors.internal(requestId);
      }
    }
    send(res, error);
  };
}

/** Final middleware for paths nothing answered. */
export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(engineErrors.noSuchPath(req.path));
}
