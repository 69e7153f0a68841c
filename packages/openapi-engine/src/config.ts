/**
 * The environment, validated once. Nothing else in the server reads `process.env`: main.ts and
 * the keys CLI call `loadConfig` and pass the result on. A bad value stops start-up with a
 * message naming the variable.
 */
import { parseRateLimitEnv, type RateLimitConfig } from "./rate-limit/rate-limit-env.js";
import { POSTGRES_SCHEMA_NAME } from "./storage/schema-name.js";

/** Where the data lives. */
export type DatabaseConfig =
  | { engine: "sqlite"; path: string }
  | { engine: "postgres"; url: string; schema: string | undefined };

/** The validated configuration of the server. */
export interface AppConfig {
  nodeEnv: "development" | "production" | "test";
  host: string;
  port: number;
  database: DatabaseConfig;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** Origins a browser may call from; `["*"]` allows any (keys are bearer tokens, not cookies). */
  corsOrigins: string[];
  /** Number of reverse-proxy hops whose X-Forwarded-For is trusted (0: none). */
  trustProxy: number;
  /** Validate responses against the contract (on unless NODE_ENV=production). */
  validateResponses: boolean;
  /** How long an API-key lookup is cached; a revocation takes effect within this time. */
  apiKeyCacheTtlMs: number;
  /** How long SIGTERM waits for in-flight requests before closing connections. */
  shutdownTimeoutMs: number;
  /** Bounds on a connection: see README "Server configuration" and http/connection-caps.ts. */
  connections: {
    /** The request's headers must all arrive within this (else 408, connection closed). */
    headersTimeoutMs: number;
    /** The whole request, body included, must arrive within this. */
    requestTimeoutMs: number;
    /** An idle keep-alive connection is closed after this. */
    keepAliveTimeoutMs: number;
    /** Concurrent connections in total, and per client address (0: no per-address cap). */
    maxConnections: number;
    maxConnectionsPerAddress: number;
    /** The lingering close after an early answer (http-server/lingering-close.ts). */
    linger: LingerSettings;
  };
  /**
   * OPENAPI_BUNDLE: a bundled contract (JSON) to serve instead of the application's own, e.g. a
   * scratch copy the dev loop's drill edits; undefined serves the application's.
   */
  bundlePath: string | undefined;
  /** The rendered docs page served at /docs when it exists, and how to build it. */
  docsHtmlPath: string;
  docsBuildHint: string;
  /** Ban settings and where the counters live (REDIS_URL). */
  rateLimit: RateLimitConfig;
  /** The metrics listener (METRICS_HOST, METRICS_PORT; port 0: none). */
  metrics: MetricsConfig;
}

/** Where /metrics is served: a listener of its own, never the API's port. */
export interface MetricsConfig {
  host: string;
  /** 0: no metrics at all (nothing counted). */
  port: number;
  /** METRICS_PORT was set, so a port in use stops start-up (the default port is skipped, logged). */
  required: boolean;
  /**
   * METRICS_GC_DURATIONS: also export `nodejs_gc_duration_seconds` (off unless set; watching
   * every collection cost the server CPU on every request: apps/bench/README.md has the figures).
   */
  gcDurations: boolean;
}

/** What the application names where the environment says nothing (the engine names nothing). */
export interface ConfigDefaults {
  /** DATABASE_URL when it is not set, e.g. `file:./data/<application>.db`. */
  databaseUrl: string;
  /** DOCS_HTML_PATH when it is not set: the rendered docs page served at /docs. */
  docsHtmlPath: string;
  /** How to build that page, for the 404 /docs answers while it is missing (`pnpm run docs`). */
  docsBuildHint: string;
  /** RATE_LIMIT_REDIS_PREFIX when it is not set, so deployments sharing a Redis stay apart. */
  redisKeyPrefix: string;
}

/** Thrown for a bad environment value; the message names the variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const NODE_ENVS = ["development", "production", "test"] as const;

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], dflt: T): T {
  const raw = env[name]?.trim();
  if (!raw) return dflt;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(", ")} (got "${raw}")`);
  }
  return raw as T;
}

function integer(env: Env, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return dflt;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function bool(env: Env, name: string, dflt: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return dflt;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new ConfigError(`${name} must be true or false (got "${env[name]}")`);
}

function database(env: Env, defaultUrl: string): DatabaseConfig {
  const raw = env.DATABASE_URL?.trim() || defaultUrl;
  const schema = env.DATABASE_SCHEMA?.trim() || undefined;
  if (raw.startsWith("file:")) {
    const path = raw.slice("file:".length);
    if (!path) throw new ConfigError(`DATABASE_URL file: needs a path, e.g. ${defaultUrl}`);
    if (schema) throw new ConfigError("DATABASE_SCHEMA only applies to PostgreSQL");
    return { engine: "sqlite", path };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError("DATABASE_URL is not a valid postgres:// URL");
    }
    if (schema !== undefined && !POSTGRES_SCHEMA_NAME.test(schema)) {
      throw new ConfigError(
        `DATABASE_SCHEMA must be a plain lower-case identifier (got "${schema}")`,
      );
    }
    return { engine: "postgres", url: raw, schema };
  }
  // Never echo the value: a database URL may carry a password.
  throw new ConfigError("DATABASE_URL must start with file: or postgres://");
}

function rateLimit(env: Env, defaultPrefix: string): RateLimitConfig {
  try {
    return parseRateLimitEnv(env, defaultPrefix);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

function corsOrigins(env: Env): string[] {
  const raw = env.CORS_ORIGINS?.trim();
  if (!raw) return [];
  if (raw === "*") return ["*"];
  return raw.split(",").map((entry) => {
    const origin = entry.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError(
        `CORS_ORIGINS must be * or a comma-separated list of origins like https://app.example.com (bad: "${origin}")`,
      );
    }
    return origin;
  });
}

/** The bounds of the read-and-discard after an early answer (http-server/lingering-close.ts). */
export interface LingerSettings {
  /** Destroyed this long after the answer, whatever the client does. */
  maxMs: number;
  /** Destroyed once the client has sent nothing for this long. */
  idleMs: number;
  /** Destroyed once more than this many bytes were thrown away. */
  maxBytes: number;
}

/** LINGER_MAX_MS, LINGER_IDLE_MS and LINGER_MAX_BYTES when they are not set. */
export const DEFAULT_LINGER: LingerSettings = {
  maxMs: 5_000,
  idleMs: 1_000,
  maxBytes: 16 * 1024 * 1024,
};

function connections(env: Env): AppConfig["connections"] {
  const headersTimeoutMs = integer(env, "HEADERS_TIMEOUT_MS", 10_000, 1_000, 120_000);
  const requestTimeoutMs = integer(env, "REQUEST_TIMEOUT_MS", 30_000, 1_000, 600_000);
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError(
      `REQUEST_TIMEOUT_MS (${requestTimeoutMs}) must be at least HEADERS_TIMEOUT_MS (${headersTimeoutMs})`,
    );
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integer(env, "KEEP_ALIVE_TIMEOUT_MS", 5_000, 0, 600_000),
    maxConnections: integer(env, "MAX_CONNECTIONS", 10_000, 1, 1_000_000),
    maxConnectionsPerAddress: integer(env, "MAX_CONNECTIONS_PER_ADDRESS", 256, 0, 1_000_000),
    linger: {
      maxMs: integer(env, "LINGER_MAX_MS", DEFAULT_LINGER.maxMs, 0, 600_000),
      idleMs: integer(env, "LINGER_IDLE_MS", DEFAULT_LINGER.idleMs, 0, 600_000),
      maxBytes: integer(env, "LINGER_MAX_BYTES", DEFAULT_LINGER.maxBytes, 0, 1_073_741_824),
    },
  };
}

function metrics(env: Env): MetricsConfig {
  const host = env.METRICS_HOST?.trim() || "127.0.0.1";
  if (/\s/.test(host))
    throw new ConfigError(`METRICS_HOST must be a host name or address (got "${host}")`);
  const port = integer(env, "METRICS_PORT", 9464, 0, 65535);
  return {
    host,
    port,
    required: Boolean(env.METRICS_PORT?.trim()),
    gcDurations: bool(env, "METRICS_GC_DURATIONS", false),
  };
}

/** Parses and validates the environment; throws ConfigError naming the variable at fault. */
export function loadConfig(env: Env, defaults: ConfigDefaults): AppConfig {
  const nodeEnv = oneOf(env, "NODE_ENV", NODE_ENVS, "development");
  const host = env.HOST?.trim() || "127.0.0.1";
  if (/\s/.test(host)) throw new ConfigError(`HOST must be a host name or address (got "${host}")`);
  return {
    nodeEnv,
    host,
    port: integer(env, "PORT", 8080, 0, 65535),
    database: database(env, defaults.databaseUrl),
    logLevel: oneOf(env, "LOG_LEVEL", LOG_LEVELS, "info"),
    corsOrigins: corsOrigins(env),
    trustProxy: integer(env, "TRUST_PROXY", 0, 0, 32),
    validateResponses: bool(env, "VALIDATE_RESPONSES", nodeEnv !== "production"),
    apiKeyCacheTtlMs: integer(env, "API_KEY_CACHE_TTL_MS", 5000, 0, 300_000),
    shutdownTimeoutMs: integer(env, "SHUTDOWN_TIMEOUT_MS", 10_000, 0, 600_000),
    connections: connections(env),
    bundlePath: env.OPENAPI_BUNDLE?.trim() || undefined,
    docsHtmlPath: env.DOCS_HTML_PATH?.trim() || defaults.docsHtmlPath,
    docsBuildHint: defaults.docsBuildHint,
    rateLimit: rateLimit(env, defaults.redisKeyPrefix),
    metrics: metrics(env),
  };
}
