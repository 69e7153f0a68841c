/**
 * Every bad input of the issue: validation errors name the field, malformed JSON 400, body over
 * the contract's limit 413, wrong content type 415, unknown path 404, wrong method 405 with Allow.
 * All with the Error body, never HTML.
 */

import { gzipSync } from "node:zlib";
import { HTTP_METHODS, loadBundledSpec, requestBodyLimitBytes } from "@animal-store/openapi";
import { basePath, otherBasePath, pagedList } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contract, exampleCall } from "./support/contract.js";
import { expectError, postJson, startTestApp, type TestApp } from "./support/test-app.js";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const LIMIT = requestBodyLimitBytes(loadBundledSpec().spec);
const { operations } = contract;

describe("query and path validation names the parameter", () => {
  it.each([
    ["?limit=0", "query/limit must be >= 1"],
    [`?limit=${pagedList().max + 1}`, `query/limit must be <= ${pagedList().max}`],
    ["?limit=abc", "query/limit must be integer"],
    ["?limit=1.5", "query/limit must be integer"],
    [
      "?status=lost",
      "query/status must be equal to one of the allowed values: available, pending, sold",
    ],
    ["?colour=red", "Unknown query parameter 'colour'"],
    ["?api_key=whatever", "Unknown query parameter 'api_key'"],
  ])("GET /pets%s", async (query, message) => {
    const body = await expectError(await app.api(`/pets${query}`), 400, "validation_failed");
    expect(body.message).toBe(message);
  });

  it.each([
    ["0", "params/petId must be >= 1"],
    ["-3", "params/petId must be >= 1"],
    ["abc", "params/petId must be integer"],
    ["2.5", "params/petId must be integer"],
    ["9007199254740992", "params/petId must be <= 9007199254740991"],
  ])("GET /pets/%s", async (petId, message) => {
    const body = await expectError(await app.api(`/pets/${petId}`), 400, "validation_failed");
    expect(body.message).toBe(message);
  });
});

describe("body validation names the field", () => {
  it.each([
    [{ name: "", categoryId: 1 }, "body/name must NOT have fewer than 1 characters"],
    [{ name: "x".repeat(101), categoryId: 1 }, "body/name must NOT have more than 100 characters"],
    [{ name: "tab\there", categoryId: 1 }, "body/name must match pattern"],
    [{ name: "nul\u0000", categoryId: 1 }, "body/name must match pattern"],
    [{ name: "del\u007f", categoryId: 1 }, "body/name must match pattern"],
    [{ name: 7, categoryId: 1 }, "body/name must be string"],
    [{ name: "Rex", categoryId: 0 }, "body/categoryId must be >= 1"],
    [{ name: "Rex", categoryId: "1" }, "body/categoryId must be integer"],
    [{ name: "Rex", categoryId: 1.5 }, "body/categoryId must be integer"],
    [{ name: "Rex", categoryId: 2 ** 53 }, "body/categoryId must be <= 9007199254740991"],
    [{ name: "Rex", categoryId: 1, status: null }, "body/status must be string"],
    [{ name: "Rex", categoryId: 1, id: 5 }, "body/id must NOT have additional properties"],
    [{ categoryId: 1 }, "body must have required property 'name'"],
    [[], "body must be object"],
    ['"Rex"', "body must be object"],
    ["null", "body must be object"],
  ])("POST /pets %j", async (payload, message) => {
    const body = await expectError(await postJson(app, payload), 400, "validation_failed");
    expect(body.message.startsWith(message)).toBe(true);
  });

  it("names an unknown property", async () => {
    const body = await expectError(
      await postJson(app, { name: "Rex", categoryId: 1, colour: "red" }),
      400,
      "validation_failed",
    );
    expect(body.message).toBe("body/colour must NOT have additional properties");
  });

  it("400 when the body is missing altogether", async () => {
    const response = await app.api("/pets", { method: "POST" });
    const body = await expectError(response, 400, "validation_failed");
    expect(body.message).toContain("body is required");
  });
});

describe("malformed JSON, size and media type", () => {
  it.each(['{"name": "Rex",', "{name: 'Rex'}", "not json", '{"name":"Rex","categoryId":1}}'])(
    "400 malformed_json for %s",
    async (text) => {
      await expectError(await postJson(app, text), 400, "malformed_json");
    },
  );

  it(`accepts a body of exactly the limit (${LIMIT} bytes)`, async () => {
    const json = JSON.stringify({ name: "Big", categoryId: 1 });
    const response = await postJson(app, json + " ".repeat(LIMIT - json.length));
    expect(response.status).toBe(201);
  });

  it("413 for one byte over the limit, and far over it", async () => {
    const json = JSON.stringify({ name: "Big", categoryId: 1 });
    const body = await expectError(
      await postJson(app, json + " ".repeat(LIMIT + 1 - json.length)),
      413,
      "payload_too_large",
    );
    expect(body.message).toBe(`The request body exceeds ${LIMIT} bytes.`);
    await expectError(
      await postJson(app, { name: "x".repeat(5 * LIMIT), categoryId: 1 }),
      413,
      "payload_too_large",
    );
  });

  it.each([
    ["text/plain", "{}"],
    ["application/x-www-form-urlencoded", "name=Rex&categoryId=1"],
    ["application/xml", "<pet/>"],
    ["application/merge-patch+json", '{"name":"Rex","categoryId":1}'],
  ])("415 for %s", async (type, text) => {
    await expectError(
      await app.api("/pets", { method: "POST", headers: { "content-type": type }, body: text }),
      415,
      "unsupported_media_type",
    );
  });

  it("accepts application/json with a charset", async () => {
    const response = await postJson(
      app,
      { name: "Rex", categoryId: 1 },
      {
        "content-type": "application/json; charset=utf-8",
      },
    );
    expect(response.status).toBe(201);
  });

  // Bodies of declared length and chunked ones, compressed ones and other charsets: body-parser's
  // cases, answered with the contract's errors.
  const chunked = (text: string): RequestInit =>
    ({
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        },
      }),
      duplex: "half",
    }) as RequestInit;

  it("reads a body alike whether its length is declared or it comes chunked", async () => {
    const pet = JSON.stringify({ name: "Chunky", categoryId: 1 });
    expect((await app.api("/pets", chunked(pet))).status).toBe(201);
    expect((await postJson(app, pet)).status).toBe(201);
    await expectError(await app.api("/pets", chunked("{nope")), 400, "malformed_json");
    await expectError(await postJson(app, "{nope"), 400, "malformed_json");
    const over = pet + " ".repeat(LIMIT + 1 - pet.length);
    const body = await expectError(await app.api("/pets", chunked(over)), 413, "payload_too_large");
    expect(body.message).toBe(`The request body exceeds ${LIMIT} bytes.`);
  });

  it("accepts a byte order mark before the JSON, as body-parser does", async () => {
    const response = await postJson(app, `\uFEFF${JSON.stringify({ name: "Bom", categoryId: 1 })}`);
    expect(response.status).toBe(201);
  });

  it("reads a gzip-compressed body, and refuses a charset other than UTF-8 with 415", async () => {
    const pet = JSON.stringify({ name: "Zipped", categoryId: 1 });
    const zipped = await app.api("/pets", {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: gzipSync(pet),
    });
    expect(zipped.status).toBe(201);
    await expectError(
      await postJson(app, pet, { "content-type": "application/json; charset=latin1" }),
      415,
      "unsupported_media_type",
    );
  });

  it("keeps the connection usable after a body over the limit", async () => {
    const big = JSON.stringify({ name: "x".repeat(2 * LIMIT), categoryId: 1 });
    for (let i = 0; i < 3; i++) {
      await expectError(await postJson(app, big), 413, "payload_too_large");
      expect((await postJson(app, { name: `After${i}`, categoryId: 1 })).status).toBe(201);
    }
  });

  it("415 for a body without any content type", async () => {
    const response = await app.api("/pets", {
      method: "POST",
      body: new Blob(['{"name":"Rex","categoryId":1}']),
    });
    await expectError(response, 415, "unsupported_media_type");
  });
});

describe("unknown paths and methods", () => {
  it.each([
    `${basePath}/animals`,
    `${basePath}/pets/1/owner`,
    basePath,
    `${otherBasePath}/pets`,
    "/",
    "/pets",
  ])("404 not_found for %s", async (path) => {
    const response = await fetch(`${app.url}${path}`, {
      headers: { authorization: `Bearer ${app.key}`, accept: "text/html" },
    });
    await expectError(response, 404, "not_found");
  });

  /** What `Allow` lists (the spec's "HTTP methods"): the path's methods, HEAD with GET, OPTIONS. */
  const allowed = (declared: string[]) => {
    const all = new Set([...declared, ...(declared.includes("GET") ? ["HEAD"] : []), "OPTIONS"]);
    return HTTP_METHODS.map((m) => m.toUpperCase())
      .filter((m) => all.has(m))
      .join(", ");
  };

  // Every path of the contract, with every method it does not declare: 405 and the declared ones.
  const undeclared = [...new Set(operations.map((op) => op.path))].flatMap((template) => {
    const declared = operations.filter((op) => op.path === template).map((op) => op.method);
    const example = operations.find((op) => op.path === template) as (typeof operations)[number];
    const { path } = exampleCall(example);
    return HTTP_METHODS.map((m) => m.toUpperCase())
      .filter(
        (method) =>
          !declared.includes(method as never) && !["HEAD", "OPTIONS", "TRACE"].includes(method),
      )
      .map((method) => [method, path.split("?")[0] as string, allowed(declared)] as const);
  });

  it.each(undeclared)("405 for %s %s with Allow: %s", async (method, path, allow) => {
    const response = await app.api(path, {
      method,
      headers: { "content-type": "text/plain" },
      body: method === "DELETE" ? undefined : "whatever",
    });
    await expectError(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toBe(allow);
  });
});
