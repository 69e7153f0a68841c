import {
  deprecationHeaders,
  deref,
  type JsonObject,
  type OpenApiDocument,
  operationDeprecation,
  specOperations,
} from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { writeDeprecationHeaders } from "./deprecation-headers.js";

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const declared = {
  Deprecation: ref("headers", "Deprecation"),
  Sunset: ref("headers", "Sunset"),
  Link: ref("headers", "Link"),
};

/** Two deprecated operations sharing a response, one using a response of its own, one not deprecated. */
function fixture(): OpenApiDocument {
  const deprecated = (since: string, sunset: string, own: JsonObject) => ({
    operationId: `op${sunset.slice(0, 4)}`,
    deprecated: true,
    "x-deprecated-since": since,
    "x-sunset": sunset,
    "x-replacement": "GET /new",
    responses: {
      "200": { description: "ok", headers: { ...declared } },
      "400": ref("responses", "Shared"),
      ...own,
    },
  });
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1.0.0" },
    servers: [{ url: "https://example.test/v2" }],
    paths: {
      "/a": { get: deprecated("2026-02-01", "2029-12-05", { "404": ref("responses", "OnlyA") }) },
      "/b": { get: deprecated("2027-03-01", "2032-06-01", {}) },
      "/new": { get: { operationId: "fresh", responses: { "400": ref("responses", "Plain") } } },
    },
    components: {
      headers: {
        Deprecation: {
          required: true,
          schema: { type: "string", pattern: "^@[0-9]+$" },
          description: "since",
        },
        Sunset: { required: true, schema: { type: "string" }, description: "removal" },
        Link: { required: true, schema: { type: "string" } },
      },
      responses: {
        Shared: { description: "bad", headers: { Sunset: ref("headers", "Sunset") } },
        OnlyA: { description: "none", headers: { ...declared } },
        Plain: { description: "bad", headers: {} },
      },
    },
  };
}

/** What the server sends for each deprecated operation, by operationId. */
function sent(spec: OpenApiDocument) {
  const operations = specOperations(spec);
  return Object.fromEntries(
    operations.flatMap((op) => {
      const deprecation = operationDeprecation(spec, op, operations);
      return deprecation ? [[op.operationId, deprecationHeaders(deprecation)]] : [];
    }),
  );
}

describe("writeDeprecationHeaders", () => {
  it("writes every declared header of a deprecated operation with the value the server sends", () => {
    const spec = fixture();
    writeDeprecationHeaders(spec);
    const values = sent(spec);
    for (const op of specOperations(spec).filter((o) => o.deprecated)) {
      for (const [status, raw] of Object.entries(op.operation.responses as JsonObject)) {
        const headers = deref<JsonObject>(spec, raw).headers as Record<string, JsonObject>;
        for (const [name, header] of Object.entries(headers)) {
          const value = values[op.operationId]?.[name];
          expect(header.example, `${op.operationId} ${status} ${name}`).toBe(value);
          const schema = header.schema as JsonObject;
          expect(schema.const, `${op.operationId} ${status} ${name}`).toBe(
            name === "Link" ? undefined : value,
          );
        }
      }
    }
    expect(values.op2029?.Sunset).toBe("Wed, 05 Dec 2029 00:00:00 GMT");
    expect(values.op2032?.Link).toBe('</v2/new>; rel="successor-version"');
  });

  it("gives each operation its own copy of a shared response, and keeps one used by one operation", () => {
    const spec = fixture();
    writeDeprecationHeaders(spec);
    const responses = (path: string) =>
      (spec.paths[path]?.get as JsonObject | undefined)?.responses as JsonObject;
    expect(responses("/a")["400"]).toEqual(ref("responses", "Shared-op2029"));
    expect(responses("/b")["400"]).toEqual(ref("responses", "Shared-op2032"));
    expect(responses("/a")["404"]).toEqual(ref("responses", "OnlyA"));
    const components = spec.components?.responses as Record<string, JsonObject>;
    expect(components.Shared?.headers).toEqual({ Sunset: ref("headers", "Sunset") });
    expect(components.Plain?.headers).toEqual({});
    expect((components.OnlyA?.headers as JsonObject | undefined)?.Sunset).toMatchObject({
      example: "Wed, 05 Dec 2029 00:00:00 GMT",
    });
  });

  it("keeps the other links a declared Link example shows (a page's next), after the successor's", () => {
    const spec = fixture();
    const b = (spec.paths["/b"]?.get as JsonObject | undefined)?.responses as JsonObject;
    (b["200"] as JsonObject).headers = {
      ...declared,
      Link: { required: true, schema: { type: "string" }, example: '<?cursor=abc>; rel="next"' },
    };
    writeDeprecationHeaders(spec);
    const link = ((b["200"] as JsonObject).headers as Record<string, JsonObject>).Link;
    expect(link?.example).toBe('</v2/new>; rel="successor-version", <?cursor=abc>; rel="next"');
    expect((link?.schema as JsonObject | undefined)?.const).toBeUndefined();
  });

  it("leaves the header components themselves without a value", () => {
    const spec = fixture();
    writeDeprecationHeaders(spec);
    const headers = spec.components?.headers as Record<string, JsonObject>;
    expect(headers.Sunset).toEqual({
      required: true,
      schema: { type: "string" },
      description: "removal",
    });
  });
});
