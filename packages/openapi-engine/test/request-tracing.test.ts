/**
 * The lifecycle's tracing hooks, over the widgets fixture: with a tracer installed (as the
 * `./tracing` entry installs OpenTelemetry's), each request of an operation tells it the
 * operation (`operationId`, method, route as the contract writes it) and runs its rate-limit
 * decision through it, once; with none installed, nothing is called. A recording tracer stands in
 * for OpenTelemetry here; the SDK's own spans are the application's integration test (planted
 * faults: the operation step left out, the decision not wrapped).
 */
import { afterEach, describe, expect, it } from "vitest";
import { installRequestTracing, type RequestTracing } from "../src/tracing/request-tracing.js";
import { contract, startFixtureApp } from "./support/serve.js";

/** A tracer that records what the lifecycle tells it. */
function recordingTracer() {
  const operations: string[][] = [];
  const decisions: string[] = [];
  const tracing: RequestTracing = {
    operation: (...args) => void operations.push(args),
    rateLimit(subject, decide) {
      decisions.push(subject.split(":")[0] as string);
      return decide();
    },
    shutdown: async () => {},
  };
  return { tracing, operations, decisions };
}

afterEach(() => installRequestTracing(undefined));

describe("the tracing hooks", () => {
  it("name each request's operation and wrap its rate-limit decision, once each", async () => {
    const recorder = recordingTracer();
    installRequestTracing(recorder.tracing);
    const app = await startFixtureApp();
    try {
      const list = contract.operations.find((op) => op.method === "GET" && !op.deprecated);
      expect(list).toBeDefined();
      const res = await app.api(`${list?.path}`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      expect(recorder.operations).toEqual([
        [list?.operationId, "GET", `${contract.basePath}${list?.path}`],
      ]);
      expect(recorder.decisions).toEqual(["key"]);
    } finally {
      await app.close();
    }
  });

  it("are not called when no tracer was installed when the app was built", async () => {
    const recorder = recordingTracer();
    const app = await startFixtureApp();
    try {
      installRequestTracing(recorder.tracing);
      const res = await app.api("/widgets");
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      expect(recorder.operations).toEqual([]);
      expect(recorder.decisions).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
