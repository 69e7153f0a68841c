import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "./document.js";
import {
  basePathOf,
  DEFAULT_REQUEST_BODY_LIMIT_BYTES,
  DEFAULT_REQUEST_TARGET_LIMIT_BYTES,
  declaredRateLimitPolicy,
  deprecationHeaders,
  operationDeprecation,
  rateLimitPolicy,
  requestBodyLimitBytes,
  requestTargetLimitBytes,
  serverBasePaths,
} from "./extensions.js";
import { loadBundledSpec } from "./load.js";
import { specOperations } from "./spec-operations.js";

const { spec } = loadBundledSpec();

/** The bundled spec with `info` extensions replaced. */
function withInfo(extra: Record<string, unknown>): OpenApiDocument {
  return { ...spec, info: { ...spec.info, ...extra } };
}

describe("rateLimitPolicy", () => {
  it("reads every plan, the anonymous plan and the ban rule of the bundled spec", () => {
    const raw = spec.info["x-rate-limit-plans"] as Record<string, Record<string, unknown>>;
    const policy = rateLimitPolicy(spec);
    expect(policy.planNames).toEqual(Object.keys(raw));
    for (const [name, plan] of Object.entries(raw)) {
      const read = policy.plans[name];
      if (plan.perMinute === "custom") {
        expect(read?.custom).toBe(true);
        expect(read?.perMinute).toBe(raw[String(plan.defaultsTo)]?.perMinute);
      } else {
        expect(read).toEqual({ perMinute: plan.perMinute, perDay: plan.perDay, custom: false });
      }
    }
    expect(policy.anonymousPlan).toBe(spec.info["x-rate-limit-anonymous-plan"]);
    const ban = spec.info["x-rate-limit-ban"] as Record<string, number>;
    expect(policy.ban).toEqual({
      threshold: ban.rejectedRequestsBeforeBan,
      seconds: ban.banSeconds,
    });
  });

  it("follows an edit of the spec (a plan at 30 a minute)", () => {
    const plans = {
      ...(spec.info["x-rate-limit-plans"] as object),
      free: { perMinute: 30, perDay: 500 },
    };
    expect(rateLimitPolicy(withInfo({ "x-rate-limit-plans": plans })).plans.free).toEqual({
      perMinute: 30,
      perDay: 500,
      custom: false,
    });
  });

  it("refuses bad plan tables, naming the extension at fault", () => {
    const plans = spec.info["x-rate-limit-plans"] as Record<string, unknown>;
    expect(() =>
      rateLimitPolicy(
        withInfo({ "x-rate-limit-plans": { ...plans, free: { perMinute: 0, perDay: 1 } } }),
      ),
    ).toThrow("info.x-rate-limit-plans.free.perMinute must be a whole number of at least 1");
    expect(() =>
      rateLimitPolicy(
        withInfo({
          "x-rate-limit-plans": { ...plans, enterprise: { perMinute: "custom", perDay: "custom" } },
        }),
      ),
    ).toThrow("info.x-rate-limit-plans.enterprise.defaultsTo must name a plan");
    expect(() =>
      rateLimitPolicy(withInfo({ "x-rate-limit-anonymous-plan": "enterprise" })),
    ).toThrow("info.x-rate-limit-anonymous-plan must name a plan with numeric limits");
    expect(() => rateLimitPolicy(withInfo({ "x-rate-limit-ban": undefined }))).toThrow(
      "info.x-rate-limit-ban must be an object",
    );
  });
});

describe("declaredRateLimitPolicy", () => {
  it("is undefined when no info.x-rate-limit-* is declared, the policy when all are", () => {
    expect(declaredRateLimitPolicy(spec)).toEqual(rateLimitPolicy(spec));
    const none = withInfo({
      "x-rate-limit-plans": undefined,
      "x-rate-limit-anonymous-plan": undefined,
      "x-rate-limit-ban": undefined,
    });
    expect(declaredRateLimitPolicy(none)).toBeUndefined();
  });
  it("refuses some of them without the others, naming what is missing", () => {
    expect(() => declaredRateLimitPolicy(withInfo({ "x-rate-limit-ban": undefined }))).toThrow(
      "info.x-rate-limit-ban must be an object",
    );
  });
});

describe("requestBodyLimitBytes", () => {
  it("defaults to 1 MiB when the contract declares no limit", () => {
    expect(requestBodyLimitBytes(withInfo({ "x-request-body-limit-bytes": undefined }))).toBe(
      DEFAULT_REQUEST_BODY_LIMIT_BYTES,
    );
    expect(DEFAULT_REQUEST_BODY_LIMIT_BYTES).toBe(1_048_576);
  });
  it("reads the body limit and refuses one that is not a whole number", () => {
    expect(requestBodyLimitBytes(spec)).toBe(spec.info["x-request-body-limit-bytes"]);
    expect(() => requestBodyLimitBytes(withInfo({ "x-request-body-limit-bytes": "16k" }))).toThrow(
      "info.x-request-body-limit-bytes must be a whole number",
    );
  });
});

describe("requestTargetLimitBytes", () => {
  it("defaults to RFC 9110's 8000 bytes when the contract declares no limit", () => {
    expect(requestTargetLimitBytes(withInfo({ "x-request-target-limit-bytes": undefined }))).toBe(
      DEFAULT_REQUEST_TARGET_LIMIT_BYTES,
    );
    expect(DEFAULT_REQUEST_TARGET_LIMIT_BYTES).toBe(8000);
  });
  it("reads the request target limit and refuses one that is not a whole number", () => {
    expect(requestTargetLimitBytes(spec)).toBe(spec.info["x-request-target-limit-bytes"]);
    expect(() =>
      requestTargetLimitBytes(withInfo({ "x-request-target-limit-bytes": "8k" })),
    ).toThrow("info.x-request-target-limit-bytes must be a whole number");
  });
});

describe("basePathOf", () => {
  const server = (url: string, variables?: Record<string, { default: string }>) => ({
    url,
    ...(variables ? { variables } : {}),
  });

  it("reads the path the server URLs end with, variables filled with their defaults", () => {
    const servers = [
      server("https://{host}/v1", { host: { default: "api.example" } }),
      server("http://127.0.0.1:8080/v1/"),
    ];
    expect(basePathOf({ servers })).toBe("/v1");
    expect((spec.servers ?? []).every((s) => s.url.endsWith(basePathOf(spec)))).toBe(true);
  });

  it("is empty without servers or at the root", () => {
    expect(basePathOf({})).toBe("");
    expect(basePathOf({ servers: [server("https://api.example")] })).toBe("");
  });

  it("refuses servers that disagree", () => {
    const servers = [server("https://a.example/v1"), server("https://b.example/v2")];
    expect(() => basePathOf({ servers })).toThrow(
      "the spec's servers disagree on the base path: /v1, /v2",
    );
  });
});

describe("operationDeprecation", () => {
  const operations = specOperations(spec);

  it("reads each deprecated operation's dates and successor; others have none", () => {
    for (const op of operations) {
      const deprecation = operationDeprecation(spec, op, operations);
      if (!op.deprecated) {
        expect(deprecation).toBeUndefined();
        continue;
      }
      expect(deprecation?.since.toISOString().slice(0, 10)).toBe(
        op.operation["x-deprecated-since"],
      );
      expect(deprecation?.sunset?.toISOString().slice(0, 10)).toBe(op.operation["x-sunset"]);
      const [method, target] = String(op.operation["x-replacement"]).split(/[ ?]/);
      expect(operations.some((o) => o.method === method && o.path === target)).toBe(true);
      expect(deprecation?.successor?.link).toBe(`${basePathOf(spec)}${target}`);
    }
  });

  it("formats the headers as RFC 9745, RFC 8594 and RFC 8288 write them", () => {
    expect(
      deprecationHeaders({
        since: new Date("2026-01-01T00:00:00Z"),
        sunset: new Date("2030-12-05T00:00:00Z"),
        successor: { text: "GET /a", link: "/v1/a" },
      }),
    ).toEqual({
      Deprecation: "@1767225600",
      Sunset: "Thu, 05 Dec 2030 00:00:00 GMT",
      Link: '</v1/a>; rel="successor-version"',
    });
    expect(
      deprecationHeaders({ since: new Date(0), sunset: undefined, successor: undefined }),
    ).toEqual({
      Deprecation: "@0",
    });
  });

  it("accepts a date-time with a zone and refuses what is not a date or names no operation", () => {
    const [first] = operations;
    if (!first) throw new Error("the spec has no operation");
    const deprecated = (extra: Record<string, unknown>) => ({
      ...first,
      deprecated: true,
      operation: { ...first.operation, "x-deprecated-since": "2026-01-01", ...extra },
    });
    expect(
      operationDeprecation(
        spec,
        deprecated({ "x-sunset": "2031-06-01T12:00:00+02:00" }),
        operations,
      )?.sunset,
    ).toEqual(new Date("2031-06-01T10:00:00Z"));
    expect(() =>
      operationDeprecation(spec, deprecated({ "x-sunset": "June 2031" }), operations),
    ).toThrow(`${first.operationId}: x-sunset must be a date`);
    expect(() =>
      operationDeprecation(spec, deprecated({ "x-replacement": "GET /nowhere" }), operations),
    ).toThrow(`${first.operationId}: x-replacement must name an operation of the spec`);
    expect(() =>
      operationDeprecation(spec, deprecated({ "x-deprecated-since": undefined }), operations),
    ).toThrow(`${first.operationId}: x-deprecated-since must be a date`);
  });
});

describe("serverBasePaths", () => {
  it("lists each distinct base path in the servers' order, variables at their defaults", () => {
    expect(
      serverBasePaths({
        servers: [
          { url: "https://a.test/ferries/v2/" },
          { url: "https://b.test/{version}", variables: { version: { default: "v2" } } },
          { url: "https://c.test/ferries/v2" },
        ],
      }),
    ).toEqual(["/ferries/v2", "/v2"]);
    expect(serverBasePaths({ servers: [] })).toEqual([""]);
  });
});
