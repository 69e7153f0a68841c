/**
 * Request ids and access logs. An incoming `X-Request-Id` is kept when it is short and plain
 * (so ids can be traced through a proxy), otherwise one is generated; it is echoed back and goes
 * into every log line and every 500 message. Access logs carry the path only, never the query
 * string or headers, so a key sent in the wrong place never reaches the logs.
 */
import { randomUUID } from "node:crypto";
import type { Response } from "express";
import type { Logger } from "pino";
import type { CallerLocals } from "../auth/credentials.js";
import { step } from "../lifecycle/lifecycle.js";
import { setEngineHeader } from "../response-headers/preset-headers.js";

/** What the request context sets, for every later step and the error handler. */
export interface RequestLocals {
  /** Echoed as X-Request-Id; in every log line and 500 message. */
  requestId: string;
  /** performance.now() when the request arrived (only while access logs are written). */
  startedAt?: number;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** The second step of every request (after the fixed headers): sets `requestId` (and `startedAt`); logs each finished request. */
export function requestContext(logger: Logger) {
  const logRequests = logger.isLevelEnabled("info");
  // The access line is built below from fixed fields (never headers or the query string), so it
  // skips the logger's redaction, which cost as much as writing the line (apps/bench/README.md).
  const accessLog = logger.child({}, { redact: [] });
  // One listener for every response (no closure or once-wrapper per request); what it logs
  // comes from res.locals, the caller's key as far as a later step identified it.
  function logFinished(this: Response<unknown, RequestLocals & Partial<CallerLocals>>): void {
    const { caller, requestId, startedAt = performance.now() } = this.locals;
    accessLog.info(
      {
        reqId: requestId,
        method: this.req.method,
        path: pathOf(this.req.originalUrl),
        status: this.statusCode,
        ms: Math.round((performance.now() - startedAt) * 10) / 10,
        keyId: caller?.kind === "key" ? caller.key.id : undefined,
      },
      "request",
    );
  }
  return step<object, RequestLocals>(function requestContext(req, res, next) {
    const incoming = req.headers["x-request-id"];
    const requestId =
      typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    // Checked above (SANE_REQUEST_ID) or made here.
    setEngineHeader(res, "x-request-id", "X-Request-Id", requestId);
    if (logRequests) {
      res.locals.startedAt = performance.now();
      res.on("finish", logFinished);
    }
    next();
  });
}
