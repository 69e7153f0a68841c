/**
 * Reads JSON request bodies for the operations that declare one: 400 when the body is missing,
 * 415 when it is not `application/json`, 413 above the contract's limit, 400 when it is not JSON.
 * Operations without a body never read it. The body parser's errors become the engine's here.
 */
import express, { type Request } from "express";
import { engineErrors } from "../errors.js";
import { step } from "../lifecycle/lifecycle.js";

/** What the body step reads: whether the operation declares a request body. */
export interface BodyNeeds {
  operation: { requestBody: unknown };
}

/**
 * body-parser's error as the engine's. Its statuses here are 400 (not JSON, an aborted or short
 * body: its messages are plain and safe), 413 and 415 (a charset or encoding it cannot read);
 * anything else is left as it is, a bug.
 */
function fromBodyParser(err: unknown, limitBytes: number): unknown {
  const { type, status, message } = (err ?? {}) as {
    type?: unknown;
    status?: unknown;
    message?: unknown;
  };
  const detail = typeof message === "string" ? message : "";
  if (type === "entity.parse.failed") return engineErrors.malformedJson();
  if (status === 413) return engineErrors.payloadTooLarge(limitBytes);
  if (status === 415) return engineErrors.unsupportedMediaType(detail);
  if (status === 400) return engineErrors.validationFailed(detail);
  return err;
}

function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** Parses the JSON body of operations that declare one, up to `limitBytes`. */
export function jsonRequestBody(limitBytes: number) {
  // strict: false so a JSON string or number reaches the validator ("body must be object").
  const parseJson = express.json({ limit: limitBytes, strict: false, type: () => true });
  return step<BodyNeeds>(function jsonRequestBody(req, res, next) {
    if (res.locals.operation.requestBody === undefined) {
      next();
      return;
    }
    if (!hasBody(req)) {
      next(engineErrors.bodyRequired());
      return;
    }
    if (req.is("application/json") !== "application/json") {
      next(engineErrors.unsupportedMediaType());
      return;
    }
    parseJson(req, res, (err?: unknown) =>
      next(err === undefined ? undefined : fromBodyParser(err, limitBytes)),
    );
  });
}
