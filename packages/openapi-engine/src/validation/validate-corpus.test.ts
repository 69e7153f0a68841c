/**
 * The request validation step against express-openapi-validator's stock middleware, the oracle:
 * the same requests, on a spec with every parameter style, through both, must end the same way
 * (the same parameters handed on, coerced alike, or the same error: status and message, each
 * failure's place and rule, once converted to the engine's error as the validation step converts
 * it). The stock middleware runs only here: the engine has one road (validate.ts).
 */
import type { AddressInfo } from "node:net";
import type { OpenApiDocument } from "@animal-store/openapi";
import express, { type NextFunction, type Request, type Response } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ValidatingApp, validatingApp } from "../../test/support/validating-app.js";
import { EngineError } from "../errors.js";
import { validatedCopy } from "./compile.js";
import { fromValidator } from "./validator-errors.js";

const integer = (extra: Record<string, unknown> = {}) => ({ type: "integer", ...extra });
const query = (name: string, schema: unknown, extra: Record<string, unknown> = {}) => ({
  name,
  in: "query",
  schema,
  ...extra,
});
const jsonBody = (schema: unknown) => ({
  required: true,
  content: { "application/json": { schema } },
});
const ok = { "200": { description: "ok" } };

const SPEC = {
  openapi: "3.0.3",
  info: { title: "every parameter style", version: "1" },
  servers: [{ url: "/v1" }],
  components: {
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer" },
      queryKey: { type: "apiKey", in: "query", name: "api_key" },
    },
    parameters: {
      Limit: query("limit", integer({ minimum: 1, maximum: 100, default: 20 })),
    },
    schemas: {
      Status: { type: "string", enum: ["available", "sold"] },
      Circle: {
        type: "object",
        required: ["kind", "radius"],
        properties: { kind: { type: "string" }, radius: { type: "number", minimum: 0 } },
      },
      Square: {
        type: "object",
        required: ["kind", "side"],
        properties: { kind: { type: "string" }, side: { type: "number", minimum: 0 } },
      },
      NewItem: {
        type: "object",
        required: ["name"],
        additionalProperties: false,
        properties: { name: { type: "string", minLength: 1 }, count: integer({ minimum: 0 }) },
      },
    },
  },
  security: [{ bearer: [] }],
  paths: {
    "/plain": {
      get: {
        operationId: "listPlain",
        parameters: [
          { $ref: "#/components/parameters/Limit" },
          query("status", { $ref: "#/components/schemas/Status" }),
          query("flag", { type: "boolean" }),
          query("ratio", { type: "number", maximum: 1 }),
          query("note", { type: "string", maxLength: 5 }, { allowEmptyValue: true }),
          query("raw", { type: "string" }, { allowReserved: true }),
          { name: "X-Trace", in: "header", schema: { type: "string", maxLength: 8 } },
        ],
        responses: ok,
      },
      post: {
        operationId: "createPlain",
        requestBody: jsonBody({ $ref: "#/components/schemas/NewItem" }),
        responses: ok,
      },
    },
    "/styled": {
      get: {
        operationId: "listStyled",
        parameters: [
          query("tags", { type: "array", items: { type: "string" } }),
          query("ids", { type: "array", items: integer() }, { explode: false }),
          query(
            "filter",
            { type: "object", properties: { color: { type: "string" }, size: integer() } },
            { style: "deepObject" },
          ),
          query("json", undefined, {
            content: { "application/json": { schema: { type: "object" } } },
          }),
        ],
        responses: ok,
      },
    },
    "/open": {
      get: {
        operationId: "listOpen",
        "x-eov-allow-unknown-query-parameters": true,
        parameters: [query("limit", integer({ minimum: 1 }))],
        responses: ok,
      },
    },
    "/keyed": {
      get: {
        operationId: "listKeyed",
        security: [{ queryKey: [] }],
        parameters: [query("limit", integer())],
        responses: ok,
      },
    },
    "/shapes": {
      post: {
        operationId: "createShape",
        requestBody: jsonBody({
          oneOf: [{ $ref: "#/components/schemas/Circle" }, { $ref: "#/components/schemas/Square" }],
          discriminator: {
            propertyName: "kind",
            mapping: {
              circle: "#/components/schemas/Circle",
              square: "#/components/schemas/Square",
            },
          },
        }),
        responses: ok,
      },
    },
    "/items/{itemId}": {
      get: {
        operationId: "getItem",
        parameters: [
          { name: "itemId", in: "path", required: true, schema: integer({ minimum: 1 }) },
        ],
        responses: ok,
      },
    },
  },
};

type Outcome = { status: number; body: unknown };

function echo(req: Request, res: Response) {
  res.json({ query: req.query, params: req.params, body: req.body ?? null });
}

/** The stock app's echo: Express resets req.params between its layers; the validator's copy stays. */
function stockEcho(req: Request, res: Response) {
  const { openapi } = req as Request & { openapi?: { pathParams?: unknown } };
  res.json({ query: req.query, params: openapi?.pathParams ?? {}, body: req.body ?? null });
}
/** Either app's error as the engine answers it: the stock middleware's converted here. */
function errors(err: unknown, res: Response) {
  const error = fromValidator(err);
  if (!(error instanceof EngineError)) throw new Error(`not a validation error: ${String(err)}`);
  res.status(error.status).json(error.toBody());
}

async function listen(app: express.Express) {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => server.close(),
  };
}

let stock: Awaited<ReturnType<typeof listen>>;
let ours: ValidatingApp;

beforeAll(async () => {
  const stockApp = express();
  // Any JSON text, as the engine's body step parses it (a top-level string included).
  stockApp.use(express.json({ strict: false }));
  stockApp.use(
    OpenApiValidator.middleware({
      // The copy the engine's validator loads (compile.ts), so both read the same contract.
      apiSpec: validatedCopy(SPEC) as never,
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false },
      validateResponses: false,
      validateSecurity: false,
      fileUploader: false,
    }),
  );
  stockApp.use(stockEcho);
  stockApp.use((err: unknown, _req: Request, res: Response, _next: NextFunction) =>
    errors(err, res),
  );
  stock = await listen(stockApp);

  ours = await validatingApp(
    structuredClone(SPEC) as unknown as OpenApiDocument,
    echo,
    (err: unknown, _req: Request, res: Response, _next: NextFunction) => errors(err, res),
  );
});
afterAll(() => {
  stock?.close();
  ours?.close();
});

async function call(base: string, path: string, init?: RequestInit): Promise<Outcome> {
  const response = await fetch(base + path, init);
  return { status: response.status, body: await response.json() };
}

/** Sends one request to both apps; returns both outcomes. */
async function both(path: string, init?: RequestInit) {
  return { stock: await call(stock.base, path, init), ours: await call(ours.base, path, init) };
}

const post = (body: string, contentType = "application/json"): RequestInit => ({
  method: "POST",
  headers: { "content-type": contentType },
  body,
});

// Each with what it exercises; the expected outcome is whatever the stock middleware does.
const CORPUS: Array<[string, RequestInit?]> = [
  ["/plain"],
  ["/plain?limit=5&status=sold"],
  ["/plain?limit=0"],
  ["/plain?limit=101"],
  ["/plain?limit=abc"],
  ["/plain?limit=5.5"],
  ["/plain?limit=1e1"],
  ["/plain?limit=%35"],
  ["/plain?limit=5&limit=6"],
  ["/plain?limit="],
  ["/plain?status=asleep"],
  ["/plain?status=available,sold"],
  ["/plain?status=available%2Csold"],
  ["/plain?st%61tus=sold"],
  ["/plain?colour=red"],
  ["/plain?limit[x]=1"],
  ["/plain?limit%5Bx%5D=1"],
  ["/plain?flag=true&ratio=0.5"],
  ["/plain?flag=yes"],
  ["/plain?ratio=2"],
  ["/plain?note="],
  ["/plain?note=toolong"],
  ["/plain?raw=a:b/c"],
  ["/plain?raw=a'b"],
  ["/plain?status='sold'"],
  ["/plain?api_key=k"],
  ["/plain", { headers: { "x-trace": "short" } }],
  ["/plain", { headers: { "x-trace": "far-too-long" } }],
  ["/plain", { headers: { "content-type": "text/plain" } }],
  ["/plain", post(JSON.stringify({ name: "Rex", count: 2 }))],
  ["/plain", post(JSON.stringify({ name: "Rex" }), "application/json; charset=utf-8")],
  ["/plain", post(JSON.stringify({ name: "" }))],
  ["/plain", post(JSON.stringify({ count: -1 }))],
  ["/plain", post(JSON.stringify({ name: "Rex", colour: "red" }))],
  ["/plain", post(JSON.stringify("Rex"))],
  ["/plain?limit=5", post(JSON.stringify({ name: "Rex" }))],
  ["/styled?tags=a&tags=b"],
  ["/styled?tags=a"],
  ["/styled?ids=1,2,3"],
  ["/styled?ids=1,x"],
  ["/styled?filter[color]=red&filter[size]=2"],
  ["/styled?filter[size]=big"],
  ["/styled?json=%7B%22a%22%3A1%7D"],
  ["/styled?json=nope"],
  ["/open?limit=2&anything=else"],
  ["/open?limit=0&anything="],
  ["/keyed?limit=2&api_key=k"],
  ["/keyed?limit=2&other=k"],
  ["/shapes", post(JSON.stringify({ kind: "circle", radius: 2 }))],
  ["/shapes", post(JSON.stringify({ kind: "square", side: 3 }))],
  ["/shapes", post(JSON.stringify({ kind: "circle", side: 3 }))],
  ["/shapes", post(JSON.stringify({ kind: "triangle", side: 3 }))],
  ["/shapes", post(JSON.stringify({ radius: 1 }))],
  ["/items/7"],
  ["/items/0"],
  ["/items/abc"],
];

describe("request validation", () => {
  it("ends every request of the corpus as the validator's stock middleware does", async () => {
    for (const [path, init] of CORPUS) {
      const outcome = await both(path, init);
      expect({ path, method: init?.method, ...outcome.ours }).toEqual({
        path,
        method: init?.method,
        ...outcome.stock,
      });
    }
  });

  it("coerces plain parameters as the stock middleware does", async () => {
    const { stock: theirs, ours: mine } = await both("/plain?limit=5&flag=false&ratio=0.25");
    expect(mine).toEqual(theirs);
    expect(mine.body).toMatchObject({ query: { limit: 5, flag: false, ratio: 0.25 } });
  });

  it("reshapes styled parameters (arrays, deepObject, content) as the stock middleware does", async () => {
    const { stock: theirs, ours: mine } = await both(
      "/styled?tags=a&ids=1,2&json=%7B%22a%22%3A1%7D",
    );
    expect(mine).toEqual(theirs);
    expect(mine.body).toMatchObject({ query: { tags: ["a"], ids: [1, 2], json: { a: 1 } } });
    const deep = await both("/styled?filter[color]=red&filter[size]=2");
    expect(deep.ours).toEqual(deep.stock);
    expect(deep.ours.body).toMatchObject({ query: { filter: { color: "red", size: 2 } } });
  });

  it("picks a body's schema by its discriminator as the stock middleware does", async () => {
    const good = await both("/shapes", post(JSON.stringify({ kind: "square", side: 3 })));
    expect(good.ours).toEqual(good.stock);
    expect(good.ours.status).toBe(200);
    // A circle's kind with a square's fields: the oneOf alone would take it as a square.
    const mixed = await both("/shapes", post(JSON.stringify({ kind: "circle", side: 3 })));
    expect(mixed.ours).toEqual(mixed.stock);
    expect(mixed.ours.status).toBe(400);
    const bad = await both("/shapes", post(JSON.stringify({ kind: "triangle", side: 3 })));
    expect(bad.ours).toEqual(bad.stock);
    expect(bad.ours.status).toBe(400);
  });

  it("refuses a bracketed name on a route of plain parameters, as an unknown name", async () => {
    const { stock: theirs, ours: mine } = await both("/plain?limit[x]=1");
    expect(mine).toEqual(theirs);
    expect(mine.status).toBe(400);
    expect(JSON.stringify(mine.body)).toContain("limit");
  });
});
