import { describe, expect, it } from "vitest";
import { type ConfigDefaults, ConfigError, loadConfig as loadWith } from "./config.js";

/** An application's defaults: the engine itself names no file, prefix or page. */
const DEFAULTS: ConfigDefaults = {
  databaseUrl: "file:./data/app.db",
  docsHtmlPath: "/srv/app/docs.html",
  docsBuildHint: "make docs",
  redisKeyPrefix: "app:rl:",
};
const loadConfig = (env: Record<string, string>) => loadWith(env, DEFAULTS);

describe("loadConfig", () => {
  it("has working defaults: the application's SQLite file on 127.0.0.1:8080, responses validated", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: "development",
      host: "127.0.0.1",
      port: 8080,
      database: { engine: "sqlite", path: "./data/app.db" },
      logLevel: "info",
      corsOrigins: [],
      trustProxy: 0,
      validateResponses: true,
      apiKeyCacheTtlMs: 5000,
      bundlePath: undefined,
      docsHtmlPath: DEFAULTS.docsHtmlPath,
      rateLimit: { redisKeyPrefix: DEFAULTS.redisKeyPrefix },
    });
  });

  it("serves another bundle of the contract with OPENAPI_BUNDLE", () => {
    expect(loadConfig({ OPENAPI_BUNDLE: " /tmp/scratch/openapi.json " }).bundlePath).toBe(
      "/tmp/scratch/openapi.json",
    );
  });

  it("turns response validation off in production unless asked", () => {
    expect(loadConfig({ NODE_ENV: "production" }).validateResponses).toBe(false);
    expect(
      loadConfig({ NODE_ENV: "production", VALIDATE_RESPONSES: "true" }).validateResponses,
    ).toBe(true);
    expect(loadConfig({ NODE_ENV: "test", VALIDATE_RESPONSES: "false" }).validateResponses).toBe(
      false,
    );
  });

  it("reads SQLite and PostgreSQL database URLs", () => {
    expect(loadConfig({ DATABASE_URL: "file:/tmp/x.db" }).database).toEqual({
      engine: "sqlite",
      path: "/tmp/x.db",
    });
    expect(
      loadConfig({ DATABASE_URL: "postgres://u:p@db:5432/widgets", DATABASE_SCHEMA: "tenant_1" })
        .database,
    ).toEqual({ engine: "postgres", url: "postgres://u:p@db:5432/widgets", schema: "tenant_1" });
    expect(loadConfig({ DATABASE_URL: "postgresql://db/widgets" }).database.engine).toBe(
      "postgres",
    );
  });

  it("parses CORS origins and proxy hops", () => {
    const config = loadConfig({
      CORS_ORIGINS: "https://app.example.com, http://localhost:5173",
      TRUST_PROXY: "2",
    });
    expect(config.corsOrigins).toEqual(["https://app.example.com", "http://localhost:5173"]);
    expect(config.trustProxy).toBe(2);
    expect(loadConfig({ CORS_ORIGINS: "*" }).corsOrigins).toEqual(["*"]);
  });

  it.each([
    [{ PORT: "http" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ PORT: "-1" }, "PORT"],
    [{ NODE_ENV: "staging" }, "NODE_ENV"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ TRUST_PROXY: "true" }, "TRUST_PROXY"],
    [{ TRUST_PROXY: "1.5" }, "TRUST_PROXY"],
    [{ VALIDATE_RESPONSES: "maybe" }, "VALIDATE_RESPONSES"],
    [{ API_KEY_CACHE_TTL_MS: "soon" }, "API_KEY_CACHE_TTL_MS"],
    [{ SHUTDOWN_TIMEOUT_MS: "-5" }, "SHUTDOWN_TIMEOUT_MS"],
    [{ CORS_ORIGINS: "app.example.com" }, "CORS_ORIGINS"],
    [{ CORS_ORIGINS: "https://app.example.com/path" }, "CORS_ORIGINS"],
    [{ DATABASE_URL: "mysql://db/widgets" }, "DATABASE_URL"],
    [{ DATABASE_URL: "file:" }, "DATABASE_URL"],
    [{ DATABASE_URL: "postgres://[bad" }, "DATABASE_URL"],
    [{ DATABASE_URL: "postgres://db/x", DATABASE_SCHEMA: "Robert'); drop" }, "DATABASE_SCHEMA"],
    [{ DATABASE_SCHEMA: "tenant" }, "DATABASE_SCHEMA"],
    [{ HOST: "a b" }, "HOST"],
  ])("rejects %j naming %s", (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^${variable}\\b`));
  });

  it("reads the metrics listener, GC durations off unless METRICS_GC_DURATIONS is set", () => {
    expect(loadConfig({}).metrics).toEqual({
      host: "127.0.0.1",
      port: 9464,
      required: false,
      gcDurations: false,
    });
    expect(loadConfig({ METRICS_PORT: "0", METRICS_GC_DURATIONS: "1" }).metrics).toEqual({
      host: "127.0.0.1",
      port: 0,
      required: true,
      gcDurations: true,
    });
    expect(() => loadConfig({ METRICS_GC_DURATIONS: "yes" })).toThrow(ConfigError);
  });

  it("never echoes a database URL, which may carry a password", () => {
    expect(() => loadConfig({ DATABASE_URL: "mysql://user:s3cret@db/widgets" })).toThrow(
      /^((?!s3cret).)*$/,
    );
  });
});
