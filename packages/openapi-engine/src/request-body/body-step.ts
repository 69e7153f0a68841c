/**
 * The body step, for the operations that declare a request body: the operation's compiled
 * request body (media-types.ts, built once at start) picks the declared media type the request's
 * Content-Type selects and answers 415 (listing the declared types) before a byte is read; then
 * the body is read within the contract's limit (read-body.ts: 413 past it, a chunked body cut
 * there and the connection closed; Content-Encoding decoded, 400 `malformed_encoding` or 415
 * `unsupported_encoding`) and parsed by its family: JSON and `+json`, a form, multipart parts
 * (bounded in count and size: 413), text, or bytes. A body the operation does not require may be
 * left out (`required: false`, OpenAPI's default); a required one that is absent is 400.
 * `Expect: 100-continue` is answered here, just before the body is read.
 *
 * What it leaves: `req.body` (the parsed value; undefined when there was none) and
 * `res.locals.mediaType`, the selected media type, whose declared key picks the schema the
 * validator checks the body against (validation/validate.ts).
 *
 * @see https://spec.openapis.org/oas/v3.1.1#request-body-object
 */
import type { Request, Response } from "express";
import type { EngineError } from "../errors.js";
import { closeWithin } from "../http-server/http-server.js";
import { step } from "../lifecycle/lifecycle.js";
import type { CompiledRequestBody, ParsedBody, SelectedMediaType } from "./media-types.js";
import { readBody } from "./read-body.js";

/** What the body step reads: the operation's compiled request body. */
export interface BodyNeeds {
  operation: { body: CompiledRequestBody | undefined };
}

/** What the body step leaves for validation: the selected media type (none: no body was sent). */
export interface BodyLocals {
  mediaType: SelectedMediaType | undefined;
}

function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function settle(
  req: Request,
  res: Response,
  next: (error?: unknown) => void,
  parsed: ParsedBody | EngineError,
): void {
  if ("value" in parsed) {
    req.body = parsed.value;
    // An empty JSON text is no body (JSON cannot be empty): validated as absent.
    if (parsed.value === undefined) (res.locals as unknown as BodyLocals).mediaType = undefined;
    next();
    return;
  }
  // The rest of a body over the limit (or one that could not be decoded) is not parsed: the
  // connection closes after the answer, lingering so that the client can read it.
  if (!req.complete) {
    res.setHeader("Connection", "close");
    closeWithin(req.socket);
  }
  next(parsed);
}

/** Reads and parses the body of operations that declare one, up to `limitBytes`. */
export function requestBody(limitBytes: number) {
  return step<BodyNeeds>(function requestBody(req, res, next) {
    const body = res.locals.operation.body;
    if (body === undefined) {
      next();
      return;
    }
    if (!hasBody(req)) {
      const absent = body.absent();
      if ("value" in absent) next();
      else next(absent);
      return;
    }
    const selected = body.select(req.headers["content-type"]);
    if (!("parse" in selected)) {
      next(selected);
      return;
    }
    (res.locals as unknown as BodyLocals).mediaType = selected;
    // Only an HTTP/1.1 request whose Expect is 100-continue gets this far with an Expect
    // (http-server.ts refuses any other).
    if (req.headers.expect !== undefined && req.httpVersionMinor === 1) res.writeContinue();
    readBody(req, limitBytes, (error, bytes) => {
      if (error !== undefined) {
        settle(req, res, next, error);
        return;
      }
      const parsed = selected.parse(bytes as Buffer);
      if (parsed instanceof Promise) parsed.then((p) => settle(req, res, next, p), next);
      else settle(req, res, next, parsed);
    });
  });
}
