/**
 * The metrics step, first in every request's lifecycle when metrics are on (absent otherwise, so
 * metrics off costs nothing): counts the request in flight, and when its connection is done
 * records it under its operation (the router's compiled operation, by index), or under a fixed
 * label when it has none.
 */
import type { Response } from "express";
import { step } from "../lifecycle/lifecycle.js";
import type { EngineMetrics } from "./engine-metrics.js";
import { ABORTED } from "./tally.js";

/** What the step keeps on a response. */
interface MeasureLocals {
  metricsStartedAt: number;
  operation?: { index: number };
}

/** The step; `basePath` tells requests without an operation under the API from those outside it. */
export function measureRequests(metrics: EngineMetrics, basePath: string) {
  const tally = metrics.requests;
  const underApi = (url: string) =>
    basePath === "" ||
    (url.startsWith(basePath) &&
      (url.length === basePath.length || "/?".includes(url[basePath.length] as string)));
  // One listener for every response, no closure per request.
  function recordClosed(this: Response<unknown, MeasureLocals>): void {
    tally.inFlight--;
    const { operation, metricsStartedAt } = this.locals;
    const index =
      operation !== undefined
        ? operation.index
        : underApi(this.req.originalUrl)
          ? tally.unmatched
          : tally.outsideApi;
    const status = this.writableFinished ? this.statusCode : ABORTED;
    tally.record(index, this.req.method, status, (performance.now() - metricsStartedAt) / 1000);
  }
  return step<object>(function measureRequests(_req, res, next) {
    tally.inFlight++;
    (res.locals as MeasureLocals).metricsStartedAt = performance.now();
    res.on("close", recordClosed);
    next();
  });
}
