// The client's plain call path against openapi-fetch's coreFetch. The same calls, made through a
// client whose calls are plain and through one whose no-op middleware sends every call through
// coreFetch, must reach the server as the same request and resolve to the same result, for every
// response shape coreFetch reads differently (a length, none, an empty body, 204, HEAD, an error
// body in JSON, in text, empty).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createAnimalStoreClient } from "../src/index.js";

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  authorization: string | undefined;
  requestId: boolean;
  body: string;
}

interface Answer {
  status: number;
  /** Sent with `Content-Length` unless chunked (then none, `Transfer-Encoding: chunked`). */
  chunked?: boolean;
  body?: string;
}

let answer: Answer = { status: 200 };
const seen: Seen[] = [];
let url = "";
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => {
    body += chunk;
  });
  req.on("end", () => {
    seen.push({
      method: req.method ?? "",
      url: req.url ?? "",
      contentType: req.headers["content-type"],
      authorization: req.headers.authorization,
      requestId: typeof req.headers["x-request-id"] === "string",
      body,
    });
    const text = answer.body ?? "";
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (!answer.chunked) headers["content-length"] = String(Buffer.byteLength(text));
    res.writeHead(answer.status, headers);
    // A chunked answer with a body sends it in two chunks; an empty one sends none.
    if (answer.chunked && text) res.write(text.slice(0, 1));
    res.end(answer.chunked ? text.slice(1) : text);
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${basePath}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => vi.restoreAllMocks());

/** Two clients alike but for the path their calls take (retries off: one request per call). */
function clients() {
  const options = { baseUrl: url, apiKey: "k", retry: false } as const;
  const plain = createAnimalStoreClient(options);
  const viaCoreFetch = createAnimalStoreClient(options);
  viaCoreFetch.use({ onRequest: () => undefined });
  return { plain, viaCoreFetch };
}

type AnyCall = (path: string, init?: Record<string, unknown>) => Promise<Record<string, unknown>>;

// Calls of every shape the plain path takes: query values (arrays and characters to escape
// included), path parameters, a JSON body, a query serializer function, HEAD and DELETE.
const CALLS: [string, string, Record<string, unknown> | undefined][] = [
  ["GET", "/pets", undefined],
  ["GET", "/pets", { params: { query: { limit: 2, status: "available", cursor: undefined } } }],
  ["GET", "/pets", { params: { query: { tags: ["a b", "c&d"], q: "ü/?#" } } }],
  ["GET", "/pets/{petId}", { params: { path: { petId: 7 } } }],
  ["GET", "/pets/{petId}", { params: { path: { petId: "a/b c" } } }],
  ["POST", "/pets", { body: { name: "Rex", categoryId: 1, tags: ["ü"] } }],
  ["GET", "/pets", { querySerializer: () => "limit=3&cursor=x%2F" }],
  ["HEAD", "/pets", undefined],
  ["DELETE", "/pets/{petId}", { params: { path: { petId: 1 } } }],
];

const ANSWERS: Answer[] = [
  { status: 200, body: '[{"id":1,"name":"Rex"}]' },
  { status: 200, chunked: true, body: '[{"id":1,"name":"Rex"}]' },
  { status: 200, chunked: true },
  { status: 200 },
  { status: 204 },
  { status: 404, body: '{"code":"not_found","message":"no pet 7"}' },
  { status: 400, body: "not json" },
  { status: 409 },
  { status: 422, chunked: true },
  { status: 500, chunked: true, body: '{"code":"internal","message":"x"}' },
];

/** Makes one call and returns what the server saw and what the call resolved or rejected to. */
async function observe(call: AnyCall, path: string, init?: Record<string, unknown>) {
  seen.length = 0;
  const result = await call(path, init).catch((error: unknown) => ({ rejected: String(error) }));
  const { response, meta, ...rest } = result as { response?: Response; meta?: object };
  return {
    request: seen[0],
    result: rest,
    status: response?.status,
    meta: meta && { ...meta, requestId: typeof (meta as { requestId?: unknown }).requestId },
  };
}

describe("a plain call and the same call through coreFetch", () => {
  it("reach the server as the same request and resolve alike, for every response shape", async () => {
    const { plain, viaCoreFetch } = clients();
    let compared = 0;
    for (const [method, path, init] of CALLS) {
      for (const scripted of ANSWERS) {
        answer = scripted;
        const call = (client: typeof plain) =>
          (client as unknown as Record<string, AnyCall>)[method] as AnyCall;
        const a = await observe(call(plain), path, init);
        const b = await observe(call(viaCoreFetch), path, init);
        expect(
          a,
          `${method} ${path} ${JSON.stringify(init)} → ${JSON.stringify(scripted)}`,
        ).toEqual(b);
        expect(a.request?.requestId).toBe(true);
        compared++;
      }
    }
    expect(compared).toBe(CALLS.length * ANSWERS.length);
  });

  it("fail alike on a success whose body is not JSON", async () => {
    const { plain, viaCoreFetch } = clients();
    answer = { status: 200, body: "{not json" };
    const a = await plain.GET("/pets").catch((error: unknown) => error);
    const b = await viaCoreFetch.GET("/pets").catch((error: unknown) => error);
    expect(a).toBeInstanceOf(SyntaxError);
    expect(b).toBeInstanceOf(SyntaxError);
  });

  it("take their own paths: plain headers for the plain one, openapi-fetch's else", async () => {
    const { plain, viaCoreFetch } = clients();
    answer = { status: 200, body: "[]" };
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    await plain.GET("/pets", { params: { query: { limit: 1 } } });
    await viaCoreFetch.GET("/pets", { params: { query: { limit: 1 } } });
    // A call with headers of its own is not plain: openapi-fetch merges them into a Headers.
    await plain.GET("/pets", { headers: { "x-extra": "1" } });
    const [first, second, third] = fetchSpy.mock.calls as [unknown, RequestInit | undefined][];
    expect(first?.[0]).toBe(`${url}/pets?limit=1`);
    expect(first?.[1]?.headers).not.toBeInstanceOf(Headers);
    expect(second?.[0]).toBeInstanceOf(Request);
    expect(third?.[1]?.headers).toBeInstanceOf(Headers);
  });
});
