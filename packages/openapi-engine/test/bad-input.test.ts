/**
 * Every bad input, over the widgets fixture: validation errors name the field, malformed JSON 400,
 * body over the contract's limit 413, wrong content type 415, unknown path 404, wrong method 405
 * with Allow. All with the Error body, never HTML.
 */

import { gzipSync } from "node:zlib";
import { deref, HTTP_METHODS, requestBodyLimitBytes } from "@animal-store/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFixture } from "./support/fixture-contract.js";
import {
  contract,
  expectError,
  type FixtureApp,
  postJson,
  startFixtureApp,
} from "./support/serve.js";
import { basePath, exampleCall, otherBasePath, pageSize } from "./support/widgets.js";

let app: FixtureApp;
beforeAll(async () => {
  app = await startFixtureApp();
});
afterAll(() => app.close());

const LIMIT = requestBodyLimitBytes(loadFixture().spec);
const { operations } = contract;
const schemas = (contract.spec.components as { schemas: Record<string, unknown> }).schemas;
const shades = deref<{ enum: string[] }>(contract.spec, schemas.Shade).enum;
const label = deref<{ maxLength: number }>(contract.spec, schemas.Label);
const maxId = deref<{ maximum: number }>(contract.spec, schemas.SizeId).maximum;

describe("query and path validation names the parameter", () => {
  it.each([
    [`?count=${pageSize.min - 1}`, `query/count must be >= ${pageSize.min}`],
    [`?count=${pageSize.max + 1}`, `query/count must be <= ${pageSize.max}`],
    ["?count=abc", "query/count must be integer"],
    ["?count=1.5", "query/count must be integer"],
    [
      "?shade=mauve",
      `query/shade must be equal to one of the allowed values: ${shades.join(", ")}`,
    ],
    ["?colour=red", "Unknown query parameter 'colour'"],
    ["?api_key=whatever", "Unknown query parameter 'api_key'"],
  ])("GET /widgets%s", async (query, message) => {
    const body = await expectError(await app.api(`/widgets${query}`), 400, "validation_failed");
    expect(body.message).toBe(message);
  });

  it.each([
    ["0", "params/widgetId must be >= 1"],
    ["-3", "params/widgetId must be >= 1"],
    ["abc", "params/widgetId must be integer"],
    ["2.5", "params/widgetId must be integer"],
    [String(maxId + 1), `params/widgetId must be <= ${maxId}`],
  ])("GET /widgets/%s", async (widgetId, message) => {
    const body = await expectError(await app.api(`/widgets/${widgetId}`), 400, "validation_failed");
    expect(body.message).toBe(message);
  });
});

describe("body validation names the field", () => {
  it.each([
    [{ label: "", sizeId: 1 }, "body/label must NOT have fewer than 1 characters"],
    [
      { label: "x".repeat(label.maxLength + 1), sizeId: 1 },
      `body/label must NOT have more than ${label.maxLength} characters`,
    ],
    [{ label: "tab\there", sizeId: 1 }, "body/label must match pattern"],
    [{ label: "nul\u0000", sizeId: 1 }, "body/label must match pattern"],
    [{ label: "del\u007f", sizeId: 1 }, "body/label must match pattern"],
    [{ label: 7, sizeId: 1 }, "body/label must be string"],
    [{ label: "Cog", sizeId: 0 }, "body/sizeId must be >= 1"],
    [{ label: "Cog", sizeId: "1" }, "body/sizeId must be integer"],
    [{ label: "Cog", sizeId: 1.5 }, "body/sizeId must be integer"],
    [{ label: "Cog", sizeId: maxId + 1 }, `body/sizeId must be <= ${maxId}`],
    [{ label: "Cog", sizeId: 1, shade: null }, "body/shade must be string"],
    [{ label: "Cog", sizeId: 1, id: 5 }, "body/id must NOT have additional properties"],
    [{ sizeId: 1 }, "body must have required property 'label'"],
    [[], "body must be object"],
    ['"Cog"', "body must be object"],
    ["null", "body must be object"],
  ])("POST /widgets %j", async (payload, message) => {
    const body = await expectError(await postJson(app, payload), 400, "validation_failed");
    expect(body.message.startsWith(message)).toBe(true);
  });

  it("names an unknown property", async () => {
    const body = await expectError(
      await postJson(app, { label: "Cog", sizeId: 1, colour: "red" }),
      400,
      "validation_failed",
    );
    expect(body.message).toBe("body/colour must NOT have additional properties");
  });

  it("400 when the body is missing altogether", async () => {
    const response = await app.api("/widgets", { method: "POST" });
    const body = await expectError(response, 400, "validation_failed");
    expect(body.message).toContain("body is required");
  });
});

describe("malformed JSON, size and media type", () => {
  it.each(['{"label": "Cog",', "{label: 'Cog'}", "not json", '{"label":"Cog","sizeId":1}}'])(
    "400 malformed_json for %s",
    async (text) => {
      await expectError(await postJson(app, text), 400, "malformed_json");
    },
  );

  it(`accepts a body of exactly the limit (${LIMIT} bytes)`, async () => {
    const json = JSON.stringify({ label: "Big", sizeId: 1 });
    const response = await postJson(app, json + " ".repeat(LIMIT - json.length));
    expect(response.status).toBe(201);
  });

  it("413 for one byte over the limit, and far over it", async () => {
    const json = JSON.stringify({ label: "Big", sizeId: 1 });
    const body = await expectError(
      await postJson(app, json + " ".repeat(LIMIT + 1 - json.length)),
      413,
      "payload_too_large",
    );
    expect(body.message).toBe(`The request body exceeds ${LIMIT} bytes.`);
    await expectError(
      await postJson(app, { label: "x".repeat(5 * LIMIT), sizeId: 1 }),
      413,
      "payload_too_large",
    );
  });

  it.each([
    ["text/plain", "{}"],
    ["application/x-www-form-urlencoded", "label=Cog&sizeId=1"],
    ["application/xml", "<widget/>"],
    ["application/merge-patch+json", '{"label":"Cog","sizeId":1}'],
  ])("415 for %s", async (type, text) => {
    await expectError(
      await app.api("/widgets", { method: "POST", headers: { "content-type": type }, body: text }),
      415,
      "unsupported_media_type",
    );
  });

  it("accepts application/json with a charset", async () => {
    const response = await postJson(
      app,
      { label: "Cog", sizeId: 1 },
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
    const pet = JSON.stringify({ label: "Chunky", sizeId: 1 });
    expect((await app.api("/widgets", chunked(pet))).status).toBe(201);
    expect((await postJson(app, pet)).status).toBe(201);
    await expectError(await app.api("/widgets", chunked("{nope")), 400, "malformed_json");
    await expectError(await postJson(app, "{nope"), 400, "malformed_json");
    const over = pet + " ".repeat(LIMIT + 1 - pet.length);
    const body = await expectError(
      await app.api("/widgets", chunked(over)),
      413,
      "payload_too_large",
    );
    expect(body.message).toBe(`The request body exceeds ${LIMIT} bytes.`);
  });

  it("accepts a byte order mark before the JSON, as body-parser does", async () => {
    const response = await postJson(app, `\uFEFF${JSON.stringify({ label: "Bom", sizeId: 1 })}`);
    expect(response.status).toBe(201);
  });

  it("reads a gzip-compressed body, and refuses a charset other than UTF-8 with 415", async () => {
    const pet = JSON.stringify({ label: "Zipped", sizeId: 1 });
    const zipped = await app.api("/widgets", {
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
    const big = JSON.stringify({ label: "x".repeat(2 * LIMIT), sizeId: 1 });
    for (let i = 0; i < 3; i++) {
      await expectError(await postJson(app, big), 413, "payload_too_large");
      expect((await postJson(app, { label: `After${i}`, sizeId: 1 })).status).toBe(201);
    }
  });

  it("415 for a body without any content type", async () => {
    const response = await app.api("/widgets", {
      method: "POST",
      body: new Blob(['{"label":"Cog","sizeId":1}']),
    });
    await expectError(response, 415, "unsupported_media_type");
  });
});

describe("unknown paths and methods", () => {
  it.each([
    `${basePath}/gadgets`,
    `${basePath}/widgets/1/owner`,
    basePath,
    `${otherBasePath}/widgets`,
    "/",
    "/widgets",
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
