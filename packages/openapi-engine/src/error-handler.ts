/**
 * The one error handler, last in the app. It sees three kinds of error: the engine's own
 * (`EngineError`, answered as it says), a backing store's outage (`StoreUnavailableError`, 503),
 * and anything else, which is a bug (500 with the request id). Whatever leaves is in the
 * contract's error shape (errors/problem-details.ts): its JSON error schema's body (`code`,
 * `message`, `status` equal to the HTTP status) where it declares one, else RFC 9457
 * `application/problem+json`; headers already on the response (rate limits, CORS) are kept.
 */
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import type { ErrorShape } from "./errors/problem-details.js";
import { EngineError, engineErrors, StoreUnavailableError } from "./errors.js";
import type { RequestLocals } from "./express-messages.js";
import type { CompiledAnswers } from "./responses/handle.js";

/** What the error handler reads: the request id, and the operation when the router found one. */
type ErrorLocals = Partial<RequestLocals & { operation: { answers: CompiledAnswers } }>;

function send(res: Response, error: EngineError, shape: ErrorShape): void {
  const text = shape.render(error);
  res.statusCode = error.status;
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.setHeader("Content-Type", shape.contentType);
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/**
 * Express error middleware, the last one in the app. With `checked` (responses validated: in
 * development and tests) and a contract that declares its error schema, an error answer its
 * operation does not document, or one without a header the contract requires, becomes a logged
 * 500. A contract without one has its engine errors answered as problem+json, which the engine
 * documents, not the contract: those are not checked against it.
 */
export function errorHandler(
  logger: Logger,
  options: {
    checked: boolean;
    errorShape: ErrorShape;
    onStoreUnavailable?: (() => void) | undefined;
  },
) {
  const { errorShape } = options;
  const checked = options.checked && errorShape.kind === "contract";
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
  return function errorHandler(
    err: unknown,
    req: Request,
    res: Response<unknown, ErrorLocals>,
    _next: NextFunction,
  ): void {
    const requestId = res.locals.requestId ?? "unknown";
    let error: EngineError;
    if (err instanceof EngineError) {
      error = err;
      // not_implemented was logged once, at start, for its operation: not again per call.
      if (error.status >= 500 && error.code !== "not_implemented") logFailure(req, requestId, err);
    } else {
      logFailure(req, requestId, err);
      if (err instanceof StoreUnavailableError) options.onStoreUnavailable?.();
      error =
        err instanceof StoreUnavailableError
          ? engineErrors.serviceUnavailable()
          : engineErrors.internal(requestId);
    }
    if (res.headersSent) {
      // Too late for a clean answer: cut the connection rather than send a broken body (a
      // finished answer is left alone; the error was a bug after it, and is logged).
      if (!res.writableEnded) res.destroy();
      return;
    }
    const answers = res.locals.operation?.answers;
    if (checked && answers !== undefined && error.status !== 500) {
      for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
      const violations = answers.violations(
        error.status,
        (name) => res.getHeader(name),
        error.toBody(),
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
    send(res, error, errorShape);
  };
}

/** Final middleware for paths nothing answered. */
export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(engineErrors.noSuchPath(req.path));
}
