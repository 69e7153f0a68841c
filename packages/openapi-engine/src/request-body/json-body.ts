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
// The content types the fast path reads as they are; any other charset goes to body-parser.
const PLAIN_JSON = /^application\/json(?:\s*;\s*charset="?utf-8"?)?\s*$/i;

/**
 * The usual body read without body-parser: a declared length within the limit, no transfer or
 * content coding, UTF-8 JSON. Gives what body-parser gives (a byte order mark skipped, an empty
 * body read as {}, its errors as the contract's); every other request takes body-parser.
 */
function readPlainJson(req: Request, length: number, done: (err?: unknown) => void): void {
  const chunks: Buffer[] = [];
  let received = 0;
  const cleanup = () => {
    req.off("data", onData);
    req.off("end", onEnd);
    req.off("aborted", onAborted);
    req.off("error", onAborted);
  };
  function onData(chunk: Buffer) {
    chunks.push(chunk);
    received += chunk.length;
  }
  function onAborted() {
    cleanup();
    done(engineErrors.validationFailed("request aborted"));
  }
  function onEnd() {
    cleanup();
    if (received !== length) {
      done(engineErrors.validationFailed("request size did not match content length"));
      return;
    }
    let text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString();
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    try {
      req.body = text.length === 0 ? {} : JSON.parse(text);
    } catch {
      done(engineErrors.malformedJson());
      return;
    }
    done();
  }
  req.on("data", onData);
  req.on("end", onEnd);
  req.on("aborted", onAborted);
  req.on("error", onAborted);
}

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
    const { headers } = req;
    const length = Number(headers["content-length"]);
    if (
      headers["transfer-encoding"] === undefined &&
      headers["content-encoding"] === undefined &&
      length <= limitBytes &&
      PLAIN_JSON.test(headers["content-type"] ?? "")
    ) {
      readPlainJson(req, length, next);
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
