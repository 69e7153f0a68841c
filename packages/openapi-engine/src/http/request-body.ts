/**
 * Reads JSON request bodies for the operations that declare one: 400 when the body is missing,
 * 415 when it is not `application/json`, 413 above the contract's limit, 400 when it is not JSON.
 * Operations without a body never read it.
 */
import express, { type NextFunction, type Request, type Response } from "express";
import { ApiHttpError } from "./errors.js";

function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** Middleware (after `resolveOperation`): parses the body of operations that declare one. */
export function jsonRequestBody(limitBytes: number) {
  // strict: false so a JSON string or number reaches the validator ("body must be object").
  const parseJson = express.json({ limit: limitBytes, strict: false, type: () => true });
  return function jsonRequestBodyMiddleware(req: Request, res: Response, next: NextFunction) {
    if (res.locals.operation?.requestBody === undefined) {
      next();
      return;
    }
    if (!hasBody(req)) {
      next(new ApiHttpError(400, "validation_failed", "body is required (a JSON object)."));
      return;
    }
    if (req.is("application/json") !== "application/json") {
      next(
        new ApiHttpError(415, "unsupported_media_type", "Content-Type must be application/json."),
      );
      return;
    }
    parseJson(req, res, next);
  };
}
