/**
 * The one error handler: whatever went wrong (ApiHttpError, validator and body-parser errors,
 * store outages, bugs) leaves as the contract's `Error` body, `application/json`, with `status`
 * equal to the HTTP status. Headers already on the response (rate limits, CORS) are kept.
 */
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import type { ResponseConformance } from "../contract/response-conformance.js";
import { ApiHttpError, type EngineErrorCode, StoreUnavailableError } from "./errors.js";

/** Codes for statuses that reach us from libraries (validator, body-parser, Express). */
const CODE_BY_STATUS: Readonly<Record<number, EngineErrorCode>> = {
  400: "validation_failed",
  401: "unauthorized",
  404: "not_found",
  405: "method_not_allowed",
  410: "gone",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
  503: "service_unavailable",
};

interface LibraryError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  errors?: Array<{ path?: string; message?: string; errorCode?: string }>;
  limit?: unknown;
  message?: unknown;
}

/** "must be <= 100" at "/query/limit" becomes "query/limit must be <= 100". */
function validatorMessage(errors: NonNullable<LibraryError["errors"]>): string {
  return errors
    .map(({ path = "", message = "is invalid", errorCode }) => {
      let where = path.replace(/^[./]+/, "").replace(/\./g, "/");
      // For a missing property the path names the property; the message already does too.
      if (errorCode?.startsWith("required")) where = where.replace(/\/[^/]*$/, "");
      if (message.startsWith("Unknown query parameter")) return message;
      return `${where} ${message}`.trim();
    })
    .join("; ");
}

/** Turns any thrown value into the ApiHttpError the client sees; null means "unexpected". */
export function toApiHttpError(err: unknown): ApiHttpError | null {
  if (err instanceof ApiHttpError) return err;
  if (err instanceof StoreUnavailableError) {
    return new ApiHttpError(
      503,
      "service_unavailable",
      "The service is temporarily unavailable; retry later.",
    );
  }
  const e = (err ?? {}) as LibraryError;
  const status = Number(e.status ?? e.statusCode);
  const code = CODE_BY_STATUS[status];
  if (!code) return null;
  if (e.type === "entity.parse.failed") {
    return new ApiHttpError(400, "malformed_json", "The request body is not valid JSON.");
  }
  if (status === 413) {
    return new ApiHttpError(413, code, `The request body exceeds ${String(e.limit)} bytes.`);
  }
  if (Array.isArray(e.errors) && e.errors.length > 0) {
    return new ApiHttpError(status, code, validatorMessage(e.errors));
  }
  // body-parser's other errors (aborted, bad charset or encoding) have plain, safe messages.
  return new ApiHttpError(status, code, typeof e.message === "string" ? e.message : code);
}

function send(res: Response, error: ApiHttpError): void {
  res.status(error.status);
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  // res.json: on validated operations the response validator checks error bodies too (a status
  // the operation does not document comes back here once as a 500).
  res.json({ code: error.code, message: error.message, status: error.status });
}

function internalError(requestId: string): ApiHttpError {
  return new ApiHttpError(500, "internal_error", `Internal error (request id ${requestId}).`);
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
    let error = toApiHttpError(err);
    if (!error || error.status >= 500) logFailure(req, requestId, err);
    if (!error || error.status === 500) error = internalError(requestId);
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
        error = internalError(requestId);
      }
    }
    send(res, error);
  };
}

/** Final middleware for paths nothing answered. */
export function notFound(req: Request, _res: Response, next: NextFunction): void {
  const path = req.path.length > 200 ? `${req.path.slice(0, 200)}...` : req.path;
  next(new ApiHttpError(404, "not_found", `No such path: ${path}`));
}
