/**
 * The Prometheus registry that folds what the engine counted (engine-metrics.ts) into metrics
 * when /metrics is scraped, beside prom-client's standard
 * process metrics. Every label value comes from the contract (operationIds, plan names, error
 * codes) or a fixed list, never from a request, so no caller can grow the label space.
 */
import { createRequire } from "node:module";
import { collectDefaultMetrics, type Metric, Registry } from "prom-client";
import type { EngineMetrics } from "./engine-metrics.js";
import { LATENCY_BUCKETS } from "./observe.js";

type Values = Array<{
  value: number;
  labels?: Record<string, string | number>;
  metricName?: string;
}>;

/** A metric whose values are computed at scrape time (prom-client calls `get`). */
function computed(name: string, help: string, type: string, values: () => Values): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: "sum",
    get: async () => ({ name, help, type, aggregator: "sum", values: values() }),
    reset: () => {},
  };
  return metric as unknown as Metric;
}

function latencyValues(metrics: EngineMetrics): Values {
  const name = "http_server_request_duration_seconds";
  const values: Values = [];
  for (const { operationId, buckets, seconds } of metrics.requests.latencies()) {
    let cumulative = 0;
    for (const [i, count] of buckets.entries()) {
      cumulative += count;
      const le = i < LATENCY_BUCKETS.length ? String(LATENCY_BUCKETS[i]) : "+Inf";
      values.push({
        metricName: `${name}_bucket`,
        labels: { operation_id: operationId, le },
        value: cumulative,
      });
    }
    values.push({
      metricName: `${name}_sum`,
      labels: { operation_id: operationId },
      value: seconds,
    });
    values.push({
      metricName: `${name}_count`,
      labels: { operation_id: operationId },
      value: cumulative,
    });
  }
  return values;
}

/**
 * How often the event-loop delay histogram (`nodejs_eventloop_lag_{min,max,mean,stddev,p50,p90,
 * p99}_seconds`) samples the loop, in milliseconds. prom-client's default, 10, is a native timer
 * firing 100 times a second for as long as the process lives, and under load it cost the server
 * a measurable share of its CPU per request (apps/bench/README.md, "metrics on vs off", has the
 * figures); this interval measured level with metrics off. A stall still shows in the histogram when it overlaps a
 * sample, and `nodejs_eventloop_lag_seconds` (measured at each scrape) is unaffected.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * prom-client's collector of `nodejs_gc_duration_seconds`, left out unless asked for. It watches
 * every garbage collection through a `PerformanceObserver`, and with it on the server used
 * measurably more CPU per request, most on the answers that allocate most (apps/bench/README.md,
 * "what each change bought", has the figures). Node offers no cheaper running total of GC time
 * (v8.GCProfiler cost as much), and the event-loop delay histogram still shows a long pause.
 */
export const GC_COLLECTOR = "gc";

/** The collectors' options, as prom-client's `collectDefaultMetrics` takes them. */
interface CollectorConfig {
  register: Registry;
  eventLoopMonitoringPrecision: number;
}

// prom-client exports its collectors only together (collectDefaultMetrics); each one is a module
// of its own, named in `collectDefaultMetrics.metricsList`, so one can be left out without
// copying the rest. The list comes from the installed prom-client, so a collector it adds is kept.
const promClient = createRequire(createRequire(import.meta.url).resolve("prom-client"));

/** Registers prom-client's standard process metrics on `config.register`, less the GC observer. */
function collectProcessMetrics(config: CollectorConfig, gcDurations: boolean): void {
  if (gcDurations) {
    collectDefaultMetrics(config);
    return;
  }
  for (const name of collectDefaultMetrics.metricsList) {
    if (name === GC_COLLECTOR) continue;
    const collector = promClient(`./lib/metrics/${name}`) as (
      registry: Registry,
      config: CollectorConfig,
    ) => void;
    collector(config.register, config);
  }
}

/** How the registry is built (METRICS_GC_DURATIONS). */
export interface RegistryOptions {
  /** Also export prom-client's GC durations, at the cost `GC_COLLECTOR` states. */
  gcDurations?: boolean;
}

/** A registry of `metrics` and the process's standard metrics. */
export function metricsRegistry(metrics: EngineMetrics, options: RegistryOptions = {}): Registry {
  const registry = new Registry();
  collectProcessMetrics(
    { register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS },
    options.gcDurations ?? false,
  );
  const add = (metric: Metric) => registry.registerMetric(metric);
  add(
    computed(
      "http_server_requests_total",
      "Requests answered, by the contract's operationId (_unmatched, _outside_api otherwise), method and status",
      "counter",
      () =>
        [...metrics.requests.counts()].map(({ operationId, method, status, count }) => ({
          labels: { operation_id: operationId, method, status },
          value: count,
        })),
    ),
  );
  add(
    computed(
      "http_server_request_duration_seconds",
      "Time from a request's arrival to its answer finished, by operationId",
      "histogram",
      () => latencyValues(metrics),
    ),
  );
  add(
    computed("http_server_requests_in_flight", "Requests being answered now", "gauge", () => [
      { value: metrics.requests.inFlight },
    ]),
  );
  add(
    computed(
      "rate_limit_refusals_total",
      "Requests refused 429, by plan and code (rate_limited, api_key_banned)",
      "counter",
      () =>
        [...metrics.refusals.entries()].map(([key, value]) => {
          const [plan, code] = key.split("\n");
          return { labels: { plan: plan ?? "", code: code ?? "" }, value };
        }),
    ),
  );
  add(
    computed(
      "rate_limit_store_errors_total",
      "Commands the shared rate-limit store (Redis) failed; meanwhile each instance counts alone",
      "counter",
      () => [{ value: metrics.rateLimitStoreErrors }],
    ),
  );
  add(
    computed(
      "database_errors_total",
      "Requests answered 503 because the database did not answer",
      "counter",
      () => [{ value: metrics.databaseErrors }],
    ),
  );
  return registry;
}
