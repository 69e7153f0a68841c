/**
 * Request ids. An incoming `X-Request-Id` is kept when it is short and plain (so ids can be
 * traced through a proxy), otherwise one is generated; it is echoed back and goes into every
 * log line (observe.ts writes the access line) and every 500 message.
 */
import { randomUUID } from "node:crypto";
import { setEngineHeader } from "../express-messages.js";
import { step } from "../lifecycle/lifecycle.js";

/** What the request context sets, for every later step and the error handler. */
export interface RequestLocals {
  /** Echoed as X-Request-Id; in every log line and 500 message. */
  requestId: string;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The step after the fixed headers: sets `requestId` and echoes it as X-Request-Id. */
export function requestContext() {
  return step<object, RequestLocals>(function requestContext(req, res, next) {
    const incoming = req.headers["x-request-id"];
    const requestId =
      typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    setEngineHeader(res, "x-request-id", "X-Request-Id", requestId);
    next();
  });
}
