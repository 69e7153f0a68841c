/**
 * `@animal-store/openapi-engine/tracing`: OpenTelemetry tracing of a server, configured by the
 * standard OTEL_* variables (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT,
 * OTEL_SERVICE_NAME, ...), with the official SDK and its instrumentations of http, express, pg and
 * ioredis, plus the engine's own: each request's span named after its operation (`http.route`,
 * `operation.id`) and a span per rate-limit decision. Import it, and call `startTracing`, before
 * the server's modules are imported: the instrumentations hook modules as they load (in ESM
 * through the loader hook registered here). The server's entry does so only when the environment
 * asks for traces, so with tracing off none of this is loaded.
 */
import { register } from "node:module";
import type { SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { installRequestTracing } from "./request-tracing.js";

export { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

/** Starts the SDK; `spanProcessors` replace the exporter OTEL_TRACES_EXPORTER names (tests). */
export async function startTracing(options: {
  serviceName: string;
  spanProcessors?: SpanProcessor[];
}): Promise<void> {
  register("@opentelemetry/instrumentation/hook.mjs", import.meta.url);
  const [{ NodeSDK }, api, core, http, express, pg, ioredis] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/api"),
    import("@opentelemetry/core"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-express"),
    import("@opentelemetry/instrumentation-pg"),
    import("@opentelemetry/instrumentation-ioredis"),
  ]);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME?.trim() || options.serviceName,
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
    instrumentations: [
      new http.HttpInstrumentation(),
      new express.ExpressInstrumentation(),
      // Only inside a request: the background readiness probes make no traces of their own.
      new pg.PgInstrumentation({ requireParentSpan: true }),
      new ioredis.IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  const tracer = api.trace.getTracer("@animal-store/openapi-engine");
  installRequestTracing({
    operation(operationId, method, route) {
      const rpc = core.getRPCMetadata(api.context.active());
      const span = rpc?.type === core.RPCType.HTTP ? rpc.span : api.trace.getActiveSpan();
      if (rpc?.type === core.RPCType.HTTP) rpc.route = route;
      span?.updateName(`${method} ${route}`);
      span?.setAttributes({ "http.route": route, "operation.id": operationId });
    },
    rateLimit(subject, decide) {
      return tracer.startActiveSpan("rate-limit", (span) => {
        span.setAttribute(
          "rate_limit.subject_kind",
          subject.startsWith("key:") ? "key" : "address",
        );
        let result: ReturnType<typeof decide>;
        try {
          result = decide();
        } catch (err) {
          span.end();
          throw err;
        }
        if (result instanceof Promise) {
          return result.finally(() => span.end()) as typeof result;
        }
        span.end();
        return result;
      });
    },
    shutdown: () => sdk.shutdown(),
  });
}
