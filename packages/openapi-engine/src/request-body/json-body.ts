/**
 * Reads JSON request bodies for the operations that declare one: 400 when the body is missing,
 * 415 when it is not `application/json` in UTF-8, 413 above the contract's limit (a chunked body
 * is cut there: the connection is closed), 400 when it is not JSON, or not text kept exactly
 * (text-check.ts), 400 `malformed_encoding` when its Content-Encoding cannot be decoded and 415
 * `unsupported_encoding` for one that is not supported (read-body.ts). Operations without a body
 * never read it; `Expect: 100-continue` is answered here, just before the body is read.
 */
import type { Request } from "express";
import { type EngineError, engineErrors } from "../errors.js";
import { closeWithin } from "../http-server/connection-answers.js";
import { step } from "../lifecycle/lifecycle.js";
import { readBody } from "./read-body.js";
import { decodeExactly } from "./text-check.js";

/** What the body step reads: whether the operation declares a request body. */
export interface BodyNeeds {
  operation: { requestBody: unknown };
}

function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

// RFC 8259 section 8.1: JSON between systems is UTF-8; a charset parameter may only say so.
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

function charsetProblem(req: Request): EngineError | undefined {
  const charset = CHARSET.exec(req.headers["content-type"] ?? "")?.[1]?.toLowerCase();
  if (charset === undefined || charset === "utf-8" || charset === "utf8") return undefined;
  return engineErrors.unsupportedMediaType(`Unsupported charset "${charset}": send UTF-8.`);
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The body as JSON, or the error to answer with. */
function parseJson(body: Buffer): { value: unknown } | EngineError {
  // A byte order mark may lead the text (RFC 8259 section 8.1 lets a parser ignore it).
  const text = body.subarray(0, 3).equals(BOM) ? body.subarray(3) : body;
  if (text.length === 0) return engineErrors.bodyRequired();
  const decoded = decodeExactly(text);
  if (typeof decoded !== "string") return engineErrors.malformedText(decoded.problem);
  try {
    return { value: JSON.parse(decoded) };
  } catch {
    return engineErrors.malformedJson();
  }
}

/** Parses the JSON body of operations that declare one, up to `limitBytes`. */
export function jsonRequestBody(limitBytes: number) {
  return step<BodyNeeds>(function jsonRequestBody(req, res, next) {
    if (res.locals.operation.requestBody === undefined) {
      next();
      return;
    }
    if (!hasBody(req)) {
      next(engineErrors.bodyRequired());
      return;
    }
    // The Content-Type nearly every client sends is settled without type-is's parse.
    const type = req.headers["content-type"];
    if (type !== "application/json" && req.is("application/json") !== "application/json") {
      next(engineErrors.unsupportedMediaType());
      return;
    }
    const charset = charsetProblem(req);
    if (charset !== undefined) {
      next(charset);
      return;
    }
    // Only an HTTP/1.1 request whose Expect is 100-continue gets this far with an Expect
    // (http-server.ts refuses any other).
    if (req.headers.expect !== undefined && req.httpVersionMinor === 1) res.writeContinue();
    readBody(req, limitBytes, (error, body) => {
      const parsed = error ?? parseJson(body as Buffer);
      if ("value" in parsed) {
        req.body = parsed.value;
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
    });
  });
}
