// What a call tells about itself, against a real local HTTP server: the X-Request-Id it sends,
// the request id and operationId on every error, each result's own `meta` (rate limit,
// deprecation, attempts) next to the client-wide latest, and the onRetry events.
import { basePath, deprecated as specDeprecated } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ApiError,
  createAnimalStoreClient,
  type RetryEvent,
  responseMeta,
  unwrap,
} from "../src/index.js";
import { fakeClock, type ScriptedServer, startScriptedServer } from "./scripted-server.js";

const PET = { id: 1, name: "Rex", categoryId: 1 };
const NOT_FOUND = { code: "not_found", message: "Pet 9 not found.", status: 404 };
const FUTURE = 4_102_444_800; // 2100-01-01, so the windows below have not reset
const limits = (remaining: number) => ({
  "x-ratelimit-limit": "300",
  "x-ratelimit-remaining": String(remaining),
  "x-ratelimit-reset": String(FUTURE),
});
// What a deprecated operation answers with: the spec's first deprecated operation's headers.
const [shown] = specDeprecated as [(typeof specDeprecated)[number]];
const deprecated = {
  deprecation: shown.headers.Deprecation as string,
  sunset: shown.headers.Sunset as string,
  link: `<${basePath}/pets>; rel="successor-version"`,
};

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const newClient = (retries: RetryEvent[] = []) => {
  const clock = fakeClock(Date.UTC(2030, 0, 1));
  return createAnimalStoreClient({
    baseUrl: `${server.url}${basePath}`,
    apiKey: "k",
    retry: { now: clock.now, sleep: clock.sleep, random: () => 0.5 },
    onDeprecation: () => undefined,
    onRetry: (event) => retries.push(event),
  });
};

describe("request ids", () => {
  it("sends one X-Request-Id per call, the same on each attempt", async () => {
    server.script({ status: 503, body: {} }, { status: 200, body: [] }, { status: 200, body: [] });
    const client = newClient();
    await client.GET("/pets");
    await client.GET("/pets");
    const [first, retried, second] = server.requests.map((r) => r.requestId);
    expect(first).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(retried).toBe(first);
    expect(second).not.toBe(first);
  });

  it("keeps a request id the caller set", async () => {
    server.script({ status: 200, body: [] });
    await newClient().GET("/pets", { headers: { "X-Request-Id": "trace-42" } });
    expect(server.requests[0]?.requestId).toBe("trace-42");
  });
});

describe("ApiError", () => {
  it("carries the server's X-Request-Id and the operationId", async () => {
    server.script({ status: 404, headers: { "x-request-id": "srv-7" }, body: NOT_FOUND });
    const result = await newClient().GET("/pets/{petId}", { params: { path: { petId: 9 } } });
    const error = (() => {
      try {
        unwrap(result);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, requestId: "srv-7", operationId: "getPet" });
  });

  it("falls back to the id the client sent when the answer has none (e.g. from a proxy)", async () => {
    server.script({ status: 502, body: "<html>" });
    const client = createAnimalStoreClient({
      baseUrl: `${server.url}${basePath}`,
      apiKey: "k",
      retry: false,
    });
    const result = await client.POST("/pets", { body: { name: "Rex", categoryId: 1 } });
    const error = new ApiError(result.response, result.error);
    expect(error.requestId).toBe(server.requests[0]?.requestId);
    expect(error.operationId).toBe("createPet");
  });
});

describe("meta of each result", () => {
  it("is this response's rate limit, not only the client's latest", async () => {
    server.script(
      { status: 200, headers: limits(41), body: [] },
      { status: 200, headers: limits(40), body: [] },
    );
    const client = newClient();
    const first = await client.GET("/pets");
    const second = await client.GET("/pets");
    expect(first.meta.rateLimit).toEqual({
      limit: 300,
      remaining: 41,
      resetAt: new Date(FUTURE * 1000),
    });
    expect(second.meta.rateLimit?.remaining).toBe(40);
    expect(client.rateLimit?.remaining).toBe(40);
    expect(first.meta).toMatchObject({ operationId: "listPets", attempts: 1 });
    expect(first.meta.requestId).toBe(server.requests[0]?.requestId);
    expect(responseMeta(first.response)).toEqual(first.meta);
  });

  it("names the deprecation of the response that carried it, and only that one", async () => {
    server.script(
      { status: 200, headers: { ...deprecated, "x-request-id": "srv-1" }, body: PET },
      { status: 200, body: [] },
    );
    const client = newClient();
    const old = await client.GET("/pets/{petId}", { params: { path: { petId: 1 } } });
    const current = await client.GET("/pets");
    expect(old.meta).toMatchObject({
      operationId: "getPet",
      requestId: "srv-1",
      deprecation: {
        operation: "getPet",
        deprecatedAt: shown.deprecation.since,
        sunset: shown.deprecation.sunset,
        link: deprecated.link,
      },
    });
    expect(current.meta.deprecation).toBeUndefined();
  });

  it("counts the attempts of a retried call", async () => {
    server.script(
      { status: 429, headers: { "retry-after": "1" }, body: {} },
      { status: 201, body: PET },
    );
    const result = await newClient().POST("/pets", { body: { name: "Rex", categoryId: 1 } });
    expect(result.meta.attempts).toBe(2);
    expect(result.data).toEqual(PET);
  });
});

describe("onRetry", () => {
  it("is told why, after which attempt and how long before each retry", async () => {
    server.script(
      { status: 429, headers: { "retry-after": "2" }, body: {} },
      { status: 500, body: {} },
      { status: 200, body: [] },
    );
    const retries: RetryEvent[] = [];
    await newClient(retries).GET("/pets", { params: { query: { limit: 5 } } });
    const requestId = server.requests[0]?.requestId;
    expect(retries).toEqual([
      {
        operationId: "listPets",
        method: "GET",
        url: `${server.url}${basePath}/pets?limit=5`,
        requestId,
        attempt: 1,
        delayMs: 2000,
        status: 429,
        error: undefined,
      },
      expect.objectContaining({ attempt: 2, delayMs: 500, status: 500 }),
    ]);
  });

  it("can be set per call, replacing the client's", async () => {
    server.script({ status: 503, body: {} }, { status: 200, body: [] });
    const clientWide: RetryEvent[] = [];
    const perCall: RetryEvent[] = [];
    await newClient(clientWide).GET("/pets", { onRetry: (event) => perCall.push(event) });
    expect(perCall).toHaveLength(1);
    expect(clientWide).toEqual([]);
  });

  it("cannot break a call by throwing", async () => {
    server.script({ status: 503, body: {} }, { status: 200, body: [] });
    const { response } = await newClient().GET("/pets", {
      onRetry: () => {
        throw new Error("a broken logger");
      },
    });
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });
});

describe("a key getter that fails", () => {
  it("rejects with its own error, unsent and not retried", async () => {
    const failure = new TypeError("the vault is sealed");
    const client = createAnimalStoreClient({
      baseUrl: `${server.url}${basePath}`,
      getApiKey: async () => {
        throw failure;
      },
    });
    await expect(client.GET("/pets")).rejects.toBe(failure);
    expect(server.requests).toHaveLength(0);
  });
});
