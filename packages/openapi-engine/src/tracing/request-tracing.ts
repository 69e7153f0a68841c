/**
 * Where the request lifecycle meets tracing, without importing OpenTelemetry: the tracing entry
 * (`@animal-store/openapi-engine/tracing`, loaded only when the environment asks for traces)
 * installs an implementation before the app is built; the app reads it once, at assembly, and
 * adds its tracing steps only then. With tracing off nothing is installed and no step is added.
 */

/** What the lifecycle tells a tracer. */
export interface RequestTracing {
  /** The request is of `operationId` (`method route`, route as the contract writes it). */
  operation(operationId: string, method: string, route: string): void;
  /** Runs the rate-limit decision in a span of its own. */
  rateLimit<T>(subject: string, decide: () => T): T;
  /** Exports what is buffered and stops (on the server's close). */
  shutdown(): Promise<void>;
}

let installed: RequestTracing | undefined;

/** Installs the tracer the next apps are built with (the tracing entry does this). */
export function installRequestTracing(tracing: RequestTracing | undefined): void {
  installed = tracing;
}

/** The installed tracer, if any. */
export function requestTracing(): RequestTracing | undefined {
  return installed;
}
