import { createRequire } from "node:module";
import type * as PerfHooks from "node:perf_hooks";
import { collectDefaultMetrics, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import { compileContract } from "../contract/contract.js";
import { EngineMetrics } from "./engine-metrics.js";
import { EVENT_LOOP_SAMPLE_MS, metricsRegistry } from "./registry.js";

const contract = compileContract(loadFixture());
const [firstPlan] = contract.rateLimit.planNames;

describe("the metrics registry", () => {
  it("writes the counts as Prometheus text, a plan the contract lacks as the anonymous plan", async () => {
    const metrics = new EngineMetrics(contract);
    const op = contract.operations[0];
    metrics.requests.record(0, op?.method ?? "GET", 200, 0.003);
    metrics.refused(firstPlan, "rate_limited");
    metrics.refused("not-a-plan", "api_key_banned");
    metrics.rateLimitStoreErrors += 2;
    metrics.databaseErrors += 1;
    const text = await metricsRegistry(metrics).metrics();
    expect(text).toContain(
      `http_server_requests_total{operation_id="${op?.operationId}",method="${op?.method}",status="200"} 1`,
    );
    expect(text).toContain(
      `http_server_request_duration_seconds_bucket{operation_id="${op?.operationId}",le="0.005"} 1`,
    );
    expect(text).toContain(
      `http_server_request_duration_seconds_count{operation_id="${op?.operationId}"} 1`,
    );
    expect(text).toContain(`rate_limit_refusals_total{plan="${firstPlan}",code="rate_limited"} 1`);
    expect(text).toContain(
      `rate_limit_refusals_total{plan="${contract.rateLimit.anonymousPlan}",code="api_key_banned"} 1`,
    );
    expect(text).not.toContain("not-a-plan");
    expect(text).toContain("rate_limit_store_errors_total 2");
    expect(text).toContain("database_errors_total 1");
    expect(text).toContain("http_server_requests_in_flight 0");
    expect(text).toContain("process_cpu_user_seconds_total");
  });

  it("samples the event loop's delay every EVENT_LOOP_SAMPLE_MS, not prom-client's 10 ms", async () => {
    // prom-client reads monitorEventLoopDelay off the CommonJS module when its collector starts.
    const perf = createRequire(import.meta.url)("node:perf_hooks") as typeof PerfHooks;
    const asked: number[] = [];
    const original = perf.monitorEventLoopDelay;
    perf.monitorEventLoopDelay = (options) => {
      asked.push(options?.resolution ?? Number.NaN);
      return original(options);
    };
    try {
      const text = await metricsRegistry(new EngineMetrics(contract)).metrics();
      expect(asked).toEqual([EVENT_LOOP_SAMPLE_MS]);
      expect(EVENT_LOOP_SAMPLE_MS).toBeGreaterThan(10);
      expect(text).toContain("nodejs_eventloop_lag_p99_seconds");
    } finally {
      perf.monitorEventLoopDelay = original;
    }
  });

  describe("prom-client's GC observer (METRICS_GC_DURATIONS)", () => {
    // What each registry asked PerformanceObserver to watch, and the names it registered.
    async function built(gcDurations: boolean | undefined) {
      const perf = createRequire(import.meta.url)("node:perf_hooks") as typeof PerfHooks;
      const proto = perf.PerformanceObserver.prototype;
      const original = proto.observe;
      const watched: string[] = [];
      proto.observe = function (this: PerfHooks.PerformanceObserver, options) {
        const asked = options as { entryTypes?: readonly string[]; type?: string } | undefined;
        watched.push(...(asked?.entryTypes ?? []), ...(asked?.type ? [asked.type] : []));
        return original.call(this, options);
      };
      try {
        const options = gcDurations === undefined ? undefined : { gcDurations };
        const registry = metricsRegistry(new EngineMetrics(contract), options);
        const names = registry.getMetricsAsArray().map((metric) => metric.name);
        return { watched, names, text: await registry.metrics() };
      } finally {
        proto.observe = original;
      }
    }

    // Every standard metric prom-client registers, from the installed version itself.
    function standardNames(): string[] {
      const reference = new Registry();
      collectDefaultMetrics({ register: reference });
      return reference.getMetricsAsArray().map((metric) => metric.name);
    }

    it("is left out by default: nothing watches garbage collection, every other standard metric is kept", async () => {
      const { watched, names, text } = await built(undefined);
      expect(watched).not.toContain("gc");
      expect(text).not.toContain("nodejs_gc_duration_seconds");
      const expected = standardNames().filter((name) => name !== "nodejs_gc_duration_seconds");
      expect(expected.length).toBeGreaterThan(10);
      for (const name of expected) expect(names).toContain(name);
    });

    it("is added when asked for, beside the same standard metrics", async () => {
      const { watched, names } = await built(true);
      expect(watched).toContain("gc");
      expect([...names].sort()).toEqual(expect.arrayContaining(standardNames()));
      expect(names).toContain("nodejs_gc_duration_seconds");
    });
  });
});
