import { request as httpRequest } from "node:http";
import { Writable } from "node:stream";
import express, { type Express } from "express";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import { requestContext } from "../api-app.js";
import { compileContract } from "../contract/contract.js";
import { EngineMetrics } from "./engine-metrics.js";
import {
  ABORTED,
  LATENCY_BUCKETS,
  measureRequests,
  OUTSIDE_API,
  observeRequests,
  RequestTally,
  UNMATCHED,
} from "./observe.js";

const contract = compileContract(loadFixture());
// Where a request outside the API is counted: with an empty base path every request is under it.
const OUTSIDE = contract.basePath === "" ? UNMATCHED : OUTSIDE_API;

/** A logger at `level` writing its lines into `lines`. */
function memoryLogger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  // The server's logger redacts authorization wherever it appears; the access line must not need it.
  const logger = pino({ level, redact: ["authorization", "*.authorization"] }, sink);
  return { logger, lines };
}

async function listening(app: Express) {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}` };
}

const settled = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
};

/** An app observed with `logger` and `metrics`, whose routes answer 204, or never (/hang). */
async function observedApp(logger: pino.Logger, metrics?: EngineMetrics) {
  const observe = observeRequests(logger, metrics && measureRequests(metrics, contract.basePaths));
  const closeListeners: number[] = [];
  const app = express();
  if (observe) app.use(observe);
  app.use(requestContext());
  app.use((req, res) => {
    closeListeners.push(res.listenerCount("close"));
    if (req.path !== "/hang") res.status(204).end();
  });
  return { ...(await listening(app)), closeListeners, observed: observe !== undefined };
}

describe("observeRequests", () => {
  it("logs one access line per request with the path, status, time and request id", async () => {
    const { logger, lines } = memoryLogger("info");
    const { server, url } = await observedApp(logger);
    try {
      const res = await fetch(`${url}${contract.basePath}/anything?limit=5`, {
        headers: { "x-request-id": "trace-1" },
      });
      await res.arrayBuffer();
      await settled(() => lines.length > 0);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        msg: "request",
        reqId: "trace-1",
        method: "GET",
        path: `${contract.basePath}/anything`,
        status: 204,
      });
      expect(typeof lines[0]?.ms).toBe("number");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("never writes the query string or any header, so a misplaced key stays out of the logs", async () => {
    const { logger, lines } = memoryLogger("info");
    const { server, url } = await observedApp(logger);
    try {
      const res = await fetch(`${url}${contract.basePath}/anything?api_key=ask_secret`, {
        headers: { authorization: "Bearer ask_secret" },
      });
      await res.arrayBuffer();
      await settled(() => lines.length > 0);
      expect(lines).toHaveLength(1);
      expect(JSON.stringify(lines)).not.toContain("ask_secret");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("logs and counts each request from one close listener, and counts an aborted one without a line", async () => {
    const { logger, lines } = memoryLogger("info");
    const metrics = new EngineMetrics(contract);
    const { server, url, closeListeners } = await observedApp(logger, metrics);
    const counts = () => [...metrics.requests.counts()];
    try {
      const res = await fetch(`${url}/somewhere`);
      await res.arrayBuffer();
      await settled(() => counts().length > 0 && lines.length > 0);
      expect(counts()).toEqual([{ operationId: OUTSIDE, method: "GET", status: "204", count: 1 }]);
      expect(lines).toHaveLength(1);

      // A request whose client goes away before the answer: counted as aborted, never logged.
      const cut = httpRequest(`${url}/hang`);
      cut.on("error", () => {});
      cut.end();
      await settled(() => metrics.requests.inFlight === 1);
      expect(metrics.requests.inFlight).toBe(1);
      cut.destroy();
      await settled(() => counts().length > 1);
      expect(counts()).toContainEqual({
        operationId: OUTSIDE,
        method: "GET",
        status: "aborted",
        count: 1,
      });
      expect(metrics.requests.inFlight).toBe(0);
      expect(lines).toHaveLength(1);
      // Logs and metrics share one listener per response.
      expect(closeListeners).toEqual([1, 1]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("is left out when access lines are off and metrics are off, and counts alone when only metrics are on", async () => {
    const quiet = memoryLogger("warn");
    expect(observeRequests(quiet.logger)).toBeUndefined();
    const metrics = new EngineMetrics(contract);
    const { server, url } = await observedApp(quiet.logger, metrics);
    try {
      const res = await fetch(`${url}${contract.basePath}/no-such-path`);
      await res.arrayBuffer();
      await settled(() => [...metrics.requests.counts()].length > 0);
      expect([...metrics.requests.counts()]).toEqual([
        { operationId: UNMATCHED, method: "GET", status: "204", count: 1 },
      ]);
      expect(quiet.lines).toHaveLength(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("RequestTally", () => {
  it("counts by operation, method and status, with the fixed labels after the operations", () => {
    const tally = new RequestTally(["listThings", "getThing"]);
    tally.record(0, "GET", 200, 0.002);
    tally.record(0, "GET", 200, 0.002);
    tally.record(0, "HEAD", 200, 0.002);
    tally.record(tally.unmatched, "GET", 404, 0.001);
    tally.record(tally.outsideApi, "BREW", 405, 0.001);
    tally.record(1, "GET", ABORTED, 0.5);
    expect([...tally.counts()]).toEqual([
      { operationId: "listThings", method: "GET", status: "200", count: 2 },
      { operationId: "listThings", method: "HEAD", status: "200", count: 1 },
      { operationId: "getThing", method: "GET", status: "aborted", count: 1 },
      { operationId: UNMATCHED, method: "GET", status: "404", count: 1 },
      // A method outside the fixed list is never a label of its own.
      { operationId: OUTSIDE_API, method: "OTHER", status: "405", count: 1 },
    ]);
  });

  it("puts each latency in the first bucket whose bound it does not exceed", () => {
    const tally = new RequestTally(["op"]);
    tally.record(0, "GET", 200, LATENCY_BUCKETS[0] as number);
    tally.record(0, "GET", 200, 1000);
    const [op] = [...tally.latencies()];
    expect(op?.buckets[0]).toBe(1);
    expect(op?.buckets[LATENCY_BUCKETS.length]).toBe(1);
    expect(op?.seconds).toBeCloseTo(1000.001);
  });
});
