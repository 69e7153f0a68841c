/**
 * What metrics count of each request, when metrics are on (nothing otherwise, so metrics off
 * costs nothing): a request in flight from its arrival, and when its connection is done the
 * request under its operation (the router's compiled operation, by index), or under a fixed
 * label when it has none. The request-observing step (request-context/observe.ts) calls these
 * from the one listener it adds per response, shared with the access log.
 */
import type { Response } from "express";
import type { EngineMetrics } from "./engine-metrics.js";
import { ABORTED } from "./tally.js";

/** What the recorder reads from a response's locals. */
export interface MeasureLocals {
  operation?: { index: number } | undefined;
}

/** Counts requests in flight and records each closed one. */
export interface RequestMeasure {
  arrived(): void;
  /** Records the closed response `res`, `seconds` after its request arrived. */
  closed(res: Response<unknown, MeasureLocals>, seconds: number): void;
}

/** The recorder; `basePath` tells requests without an operation under the API from those outside it. */
export function measureRequests(metrics: EngineMetrics, basePath: string): RequestMeasure {
  const tally = metrics.requests;
  const underApi = (url: string) =>
    basePath === "" ||
    (url.startsWith(basePath) &&
      (url.length === basePath.length || "/?".includes(url[basePath.length] as string)));
  return {
    arrived() {
      tally.inFlight++;
    },
    closed(res, seconds) {
      tally.inFlight--;
      const { operation } = res.locals;
      const index =
        operation !== undefined
          ? operation.index
          : underApi(res.req.originalUrl)
            ? tally.unmatched
            : tally.outsideApi;
      const status = res.writableFinished ? res.statusCode : ABORTED;
      tally.record(index, res.req.method, status, seconds);
    },
  };
}
