/**
 * The first step of every request when access logs or metrics are on (absent when both are off):
 * notes when the request arrived and adds one `close` listener to its response, which writes
 * the access line (for an answer that was finished) and records the request for metrics (every
 * request, an aborted one included). One listener for both, not one each: a second listener on
 * a response costs an array of listeners, copied at every emit (apps/bench/README.md).
 *
 * Access lines carry the path only, never the query string or headers, so a key sent in the
 * wrong place never reaches the logs.
 */
import { performance } from "node:perf_hooks";
import type { Response } from "express";
import type { Logger } from "pino";
import type { CallerLocals } from "../auth/security.js";
import { step } from "../lifecycle/lifecycle.js";
import type { MeasureLocals, RequestMeasure } from "../metrics/tally.js";
import type { RequestLocals } from "./request-context.js";

/** What this step sets. */
export interface ObservedLocals {
  /** performance.now() when the request arrived. */
  startedAt: number;
}

type ObservedResponse = Response<
  unknown,
  ObservedLocals & Partial<RequestLocals & CallerLocals> & MeasureLocals
>;

function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** The step, or undefined when there is nothing to observe (logs below info, metrics off). */
export function observeRequests(logger: Logger, measure?: RequestMeasure) {
  const logRequests = logger.isLevelEnabled("info");
  if (!logRequests && measure === undefined) return undefined;
  // The access line is built below from fixed fields (never headers or the query string), so it
  // skips the logger's redaction, which cost as much as writing the line (apps/bench/README.md).
  const accessLog = logger.child({}, { redact: [] });
  // One listener for every response (no closure or once-wrapper per request); what it logs
  // comes from res.locals, the caller's key as far as a later step identified it.
  function closed(this: ObservedResponse): void {
    const ms = performance.now() - this.locals.startedAt;
    // An answer cut off before it was finished has no access line (its status was never sent).
    if (logRequests && this.writableFinished) {
      const { caller, requestId } = this.locals;
      accessLog.info(
        {
          reqId: requestId,
          method: this.req.method,
          path: pathOf(this.req.originalUrl),
          status: this.statusCode,
          ms: Math.round(ms * 10) / 10,
          keyId: caller?.kind === "key" ? caller.key.id : undefined,
        },
        "request",
      );
    }
    measure?.closed(this, ms / 1000);
  }
  return step<object, ObservedLocals>(function observeRequests(_req, res, next) {
    measure?.arrived();
    res.locals.startedAt = performance.now();
    res.on("close", closed);
    next();
  });
}
