/**
 * The logger, and the access line and the metrics count of every request.
 *
 * The logger (`createLogger`): structured JSON logs (pino) on stdout, written asynchronously in
 * batches: lines collect in a buffer that is written once it holds 4 KiB, every 250 ms, and at
 * exit (pino's "asynchronous logging"): a write per line was a measurable share of a request
 * under load (apps/bench/README.md). A process killed with SIGKILL loses at most the last 250 ms
 * of lines.
 *
 * The step (`observeRequests`): the first step of every request when access logs or metrics are
 * on (absent when both are off): notes when the request arrived and adds one `close` listener to
 * its response, which writes the access line (for an answer that was finished) and records the
 * request for metrics (every request, an aborted one included). One listener for both, not one
 * each: a second listener on a response costs an array of listeners, copied at every emit
 * (apps/bench/README.md).
 *
 * Access lines carry the path only, never the query string or headers, so a key sent in the
 * wrong place never reaches the logs.
 *
 * The counts (`RequestTally`): what the hot path counts into: plain numbers in arrays indexed by
 * the compiled operation (and a small map of method and status per operation), folded into
 * Prometheus metrics only when /metrics is scraped (registry.ts). A request costs a few array
 * writes, no label strings, no hashing; label values are only ever the contract's operationIds, a
 * fixed list of methods, the status codes Node can send, and two fixed names for requests without
 * an operation.
 */
import { performance } from "node:perf_hooks";
import { HTTP_METHODS } from "@animal-store/openapi";
import type { Response } from "express";
import { type Logger, pino } from "pino";
import type { CallerLocals } from "../auth/security.js";
import type { AppConfig } from "../config.js";
import type { RequestLocals } from "../express-messages.js";
import { step } from "../lifecycle/lifecycle.js";
import type { EngineMetrics } from "./engine-metrics.js";

export type { Logger } from "pino";

// ─── The logger ─────────────────────────────────────────────────────────────────────────────────

/**
 * pino's `isoTime`, made once per millisecond: under load many lines share a millisecond, and
 * formatting the date was a visible share of each access line (apps/bench/README.md).
 */
export function cachedIsoTime(now: () => number = Date.now): () => string {
  let last = Number.NaN;
  let text = "";
  return () => {
    const ms = now();
    if (ms !== last) {
      last = ms;
      text = `,"time":"${new Date(ms).toISOString()}"`;
    }
    return text;
  };
}

/** The process logger: JSON lines with ISO times, each naming `service`; request lines add a request id. */
export function createLogger(config: Pick<AppConfig, "logLevel">, service: string): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { service },
      timestamp: cachedIsoTime(),
      // Belt and braces: nothing logs headers, but if something ever does, keys stay out.
      redact: [
        "authorization",
        "*.authorization",
        "headers.authorization",
        "*.headers.authorization",
      ],
    },
    pino.destination({ dest: 1, minLength: 4096, sync: false, periodicFlush: 250 }),
  );
}

// ─── The counts and the access line ─────────────────────────────────────────────────────────────

/** The label of requests under the base path that match no operation (unknown path or method, OPTIONS). */
export const UNMATCHED = "_unmatched";
/** The label of requests outside the base path (the ops routes, unknown paths). */
export const OUTSIDE_API = "_outside_api";

/** Methods a label can name; anything else (Node accepts a few more) is counted as OTHER. */
export const METHOD_LABELS = [
  ...HTTP_METHODS.map((method) => method.toUpperCase()),
  "HEAD",
  "OPTIONS",
  "OTHER",
].filter((method, i, all) => all.indexOf(method) === i);
const METHOD_INDEX = new Map(METHOD_LABELS.map((method, i) => [method, i]));
const OTHER_METHOD = METHOD_LABELS.length - 1;

/** Upper bounds of the latency buckets, in seconds. */
export const LATENCY_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** Status recorded for a request whose connection closed before its answer was finished. */
export const ABORTED = 0;

/** Counts of one operation label. */
interface LabelTally {
  /** Requests by method index * 1000 + status. */
  readonly byMethodStatus: Map<number, number>;
  /** Requests per latency bucket (not cumulative; the last slot is above every bound). */
  readonly buckets: Float64Array;
  totalSeconds: number;
}

/** Request counts and latencies for a fixed list of labels (operationIds, then the two fixed ones). */
export class RequestTally {
  readonly labels: readonly string[];
  readonly unmatched: number;
  readonly outsideApi: number;
  private readonly tallies: LabelTally[];
  inFlight = 0;

  constructor(operationIds: readonly string[]) {
    this.labels = [...operationIds, UNMATCHED, OUTSIDE_API];
    this.unmatched = operationIds.length;
    this.outsideApi = operationIds.length + 1;
    this.tallies = this.labels.map(() => ({
      byMethodStatus: new Map(),
      buckets: new Float64Array(LATENCY_BUCKETS.length + 1),
      totalSeconds: 0,
    }));
  }

  /** Records one finished request of label `index`. */
  record(index: number, method: string, status: number, seconds: number): void {
    const tally = this.tallies[index] as LabelTally;
    const key = (METHOD_INDEX.get(method) ?? OTHER_METHOD) * 1000 + status;
    tally.byMethodStatus.set(key, (tally.byMethodStatus.get(key) ?? 0) + 1);
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[bucket] as number)) {
      bucket++;
    }
    (tally.buckets as Float64Array)[bucket] = ((tally.buckets as Float64Array)[bucket] ?? 0) + 1;
    tally.totalSeconds += seconds;
  }

  /** Every (label, method, status) count so far. */
  *counts(): Generator<{ operationId: string; method: string; status: string; count: number }> {
    for (const [i, tally] of this.tallies.entries()) {
      for (const [key, count] of tally.byMethodStatus) {
        const status = key % 1000;
        yield {
          operationId: this.labels[i] as string,
          method: METHOD_LABELS[Math.floor(key / 1000)] as string,
          status: status === ABORTED ? "aborted" : String(status),
          count,
        };
      }
    }
  }

  /** Each label's latency buckets, sum and count, for the labels that saw a request. */
  *latencies(): Generator<{ operationId: string; buckets: Float64Array; seconds: number }> {
    for (const [i, tally] of this.tallies.entries()) {
      if (tally.byMethodStatus.size === 0) continue;
      yield {
        operationId: this.labels[i] as string,
        buckets: tally.buckets,
        seconds: tally.totalSeconds,
      };
    }
  }
}

/** Counts by a small fixed set of label values (plans, codes), kept as plain numbers. */
export class EventTally {
  private readonly counts = new Map<string, number>();

  add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  entries(): IterableIterator<[string, number]> {
    return this.counts.entries();
  }
}

/**
 * What metrics count of each request, when metrics are on (nothing otherwise, so metrics off
 * costs nothing): a request in flight from its arrival, and when its connection is done the
 * request under its operation (the router's compiled operation, by index), or under a fixed
 * label when it has none. The request-observing step (`observeRequests`) calls these
 * from the one listener it adds per response, shared with the access log.
 *
 * What the recorder reads from a response's locals.
 */
interface MeasureLocals {
  operation?: { index: number } | undefined;
}

/** Counts requests in flight and records each closed one. */
interface RequestMeasure {
  arrived(): void;
  /** Records the closed response `res`, `seconds` after its request arrived. */
  closed(res: Response<unknown, MeasureLocals>, seconds: number): void;
}

/**
 * The recorder; `basePaths` tell requests without an operation under the API from those outside
 * it (the router sets `req.baseUrl` of every request it takes, even one it finds no operation for).
 */
export function measureRequests(
  metrics: EngineMetrics,
  basePaths: readonly string[],
): RequestMeasure {
  const tally = metrics.requests;
  const atRoot = basePaths.includes("");
  const lowered = basePaths.map((base) => base.toLowerCase());
  const underApi = (url: string) => {
    if (atRoot) return true;
    const path = url.toLowerCase();
    return lowered.some(
      (base) =>
        path.startsWith(base) &&
        (path.length === base.length || "/?".includes(path[base.length] as string)),
    );
  };
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

/** What this step sets. */
interface ObservedLocals {
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
