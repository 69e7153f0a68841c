/**
 * Tracing (OpenTelemetry): one request on PostgreSQL + Redis gives one trace whose server span
 * carries the route and the operationId, with the database's spans (pg) and the rate-limit span
 * (the engine's, around Redis's), exported to an in-memory exporter. Without OTEL_* variables the
 * server's entry loads nothing of OpenTelemetry.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { useService } from "@animal-store/test-support";
import { freePort } from "@animal-store/test-support/free-port";
import { operationAt } from "@animal-store/test-support/spec";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { tracingRequested } from "../src/tracing-env.js";
import { policy } from "./support/contract.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function runNode(file: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [file, ...args],
      { env: { PATH: process.env.PATH ?? "", ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

interface ExportedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
  attributes: Record<string, unknown>;
  scope: string;
}

const SERVER_KIND = 1;

const pgService = await useService("postgres", "server: tracing on PostgreSQL + Redis");
const redisService = await useService("redis", "server: tracing on PostgreSQL + Redis");

describe.skipIf(!pgService.available || !redisService.available)("one traced request", () => {
  const schema = `trace_${randomBytes(6).toString("hex")}`;
  const prefix = `trace:${randomBytes(6).toString("hex")}:`;
  afterAll(async () => {
    if (!pgService.available || !redisService.available) return;
    const client = new pg.Client({ connectionString: pgService.url });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
    const redis = new Redis(redisService.url);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("is one trace: the route and operationId, the database's spans, the rate-limit span", {
    timeout: 90_000,
  }, async () => {
    if (!pgService.available || !redisService.available) return;
    const out = await runNode(fixture("traced-request.mjs"), [policy.anonymousPlan], {
      NODE_ENV: "test",
      PORT: "0",
      METRICS_PORT: "0",
      LOG_LEVEL: "silent",
      DATABASE_URL: pgService.url,
      DATABASE_SCHEMA: schema,
      REDIS_URL: redisService.url,
      RATE_LIMIT_REDIS_PREFIX: prefix,
    });
    const { status, path, spans } = JSON.parse(out) as {
      status: number;
      path: string;
      spans: ExportedSpan[];
    };
    expect(status).toBe(200);
    expect(new Set(spans.map((s) => s.traceId)).size, JSON.stringify(spans)).toBe(1);
    const servers = spans.filter((s) => s.kind === SERVER_KIND);
    expect(servers).toHaveLength(1);
    expect(servers[0]?.name).toBe(`GET ${path}`);
    expect(servers[0]?.attributes["http.route"]).toBe(path);
    expect(servers[0]?.attributes["operation.id"]).toBe(operationAt("/pets", "get").operationId);
    const queries = spans.filter(
      (s) => s.scope.endsWith("instrumentation-pg") && s.name.startsWith("pg.query"),
    );
    expect(queries.length).toBeGreaterThan(0);
    const rateLimit = spans.filter((s) => s.name === "rate-limit");
    expect(rateLimit).toHaveLength(1);
    const redisCalls = spans.filter((s) => s.parentSpanId === rateLimit[0]?.spanId);
    expect(redisCalls.map((s) => s.scope)).toContain("@opentelemetry/instrumentation-ioredis");
  });
});

describe("tracing off", () => {
  it("is off unless OTEL_* asks for it", () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: "none" })).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: "otlp" })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: "otlp", OTEL_SDK_DISABLED: "true" })).toBe(
      false,
    );
  });

  const startUntraced = async (metricsPort: string) => {
    const out = await runNode(fixture("untraced-start.mjs"), [], {
      NODE_ENV: "test",
      PORT: "0",
      METRICS_PORT: metricsPort,
      LOG_LEVEL: "silent",
      DATABASE_URL: "file::memory:",
    });
    const { loaded } = JSON.parse(out) as { loaded: string[] };
    // The check sees the server's CommonJS dependencies, so it would see OpenTelemetry's.
    expect(loaded.some((file) => file.includes("/express/"))).toBe(true);
    return loaded
      .filter((file) => file.includes("@opentelemetry"))
      .map((file) => file.replace(/.*\/node_modules\/(@opentelemetry\/[^/]+)\/.*/, "$1"));
  };

  it("loads nothing of OpenTelemetry when the server starts without OTEL_* variables", {
    timeout: 60_000,
  }, async () => {
    expect(await startUntraced("0")).toEqual([]);
  });

  it("with metrics on, only OpenTelemetry's API, which prom-client requires (no SDK)", {
    timeout: 60_000,
  }, async () => {
    const port = await freePort();
    expect(new Set(await startUntraced(String(port)))).toEqual(new Set(["@opentelemetry/api"]));
  });
});
