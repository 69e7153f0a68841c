// The client against a real local HTTP server that answers 429/503 or drops connections:
// the waits it asks for (recorded by an injected sleep, never timed), the retry bound, the methods
// it retries, body replay and key rotation.
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAnimalStoreClient, type RetryOptions } from "../src/index.js";
import { fakeClock, type ScriptedServer, startScriptedServer } from "./scripted-server.js";

const START = Date.UTC(2030, 0, 1, 12, 0, 0);
const PET = { id: 7, name: "Rex", categoryId: 1, status: "available" };
const limited = (headers: Record<string, string> = {}) => ({
  status: 429,
  headers,
  body: { code: "rate_limited", message: "Rate limit exceeded.", status: 429 },
});

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function clientWith(retry: RetryOptions = {}) {
  const clock = fakeClock(START);
  const client = createAnimalStoreClient({
    baseUrl: `${server.url}${basePath}`,
    apiKey: "test-key-1",
    retry: { now: clock.now, sleep: clock.sleep, random: () => 0.5, ...retry },
    onDeprecation: () => undefined,
  });
  return { client, waits: clock.waits };
}

describe("429 with Retry-After", () => {
  it("waits the seconds it says, then succeeds", async () => {
    server.script(limited({ "retry-after": "2" }), { status: 200, body: [PET] });
    const { client, waits } = clientWith();
    const { data, error } = await client.GET("/pets");
    expect(error).toBeUndefined();
    expect(data).toEqual([PET]);
    expect(waits).toEqual([2000]);
    expect(server.requests.map((r) => r.authorization)).toEqual([
      "Bearer test-key-1",
      "Bearer test-key-1",
    ]);
  });

  it("waits until an HTTP-date", async () => {
    const at = new Date(START + 5000).toUTCString();
    server.script(limited({ "retry-after": at }), { status: 200, body: [] });
    const { client, waits } = clientWith();
    await client.GET("/pets");
    expect(waits).toEqual([5000]);
  });

  it("retries at once for an HTTP-date in the past", async () => {
    const at = new Date(START - 60_000).toUTCString();
    server.script(limited({ "retry-after": at }), { status: 200, body: [] });
    const { client, waits } = clientWith();
    await client.GET("/pets");
    expect(waits).toEqual([0]);
  });

  it("never retries sooner: a Retry-After beyond maxDelayMs returns the 429", async () => {
    server.script(limited({ "retry-after": "31" }));
    const { client, waits } = clientWith({ maxDelayMs: 30_000 });
    const { data, error, response } = await client.GET("/pets");
    expect(data).toBeUndefined();
    expect(error).toEqual({ code: "rate_limited", message: "Rate limit exceeded.", status: 429 });
    expect(response.headers.get("retry-after")).toBe("31");
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("stops after maxRetries and returns the last 429", async () => {
    server.script(...Array.from({ length: 5 }, () => limited({ "retry-after": "1" })));
    const { client, waits } = clientWith({ maxRetries: 3 });
    const { error } = await client.GET("/pets");
    expect(error?.code).toBe("rate_limited");
    expect(waits).toEqual([1000, 1000, 1000]);
    expect(server.requests).toHaveLength(4);
  });

  it("retries a POST and re-sends the same body", async () => {
    server.script(limited({ "retry-after": "1" }), { status: 201, body: PET });
    const { client, waits } = clientWith();
    const { data } = await client.POST("/pets", {
      body: { name: "Rex", categoryId: 1, status: "available" },
    });
    expect(data).toEqual(PET);
    expect(waits).toEqual([1000]);
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([
      ["POST", `${basePath}/pets`],
      ["POST", `${basePath}/pets`],
    ]);
    const bodies = server.requests.map((r) => JSON.parse(r.body));
    expect(bodies).toEqual([
      { name: "Rex", categoryId: 1, status: "available" },
      { name: "Rex", categoryId: 1, status: "available" },
    ]);
  });

  it("makes later calls of the same client wait out the pause too", async () => {
    server.script(limited({ "retry-after": "3" }), { status: 200, body: [] });
    const { client, waits } = clientWith({ maxRetries: 0 });
    const first = await client.GET("/pets");
    expect(first.response.status).toBe(429);
    expect(waits).toEqual([]);
    const second = await client.GET("/pets");
    expect(second.response.status).toBe(200);
    expect(waits).toEqual([3000]);
  });
});

describe("429 without Retry-After: exponential backoff with full jitter", () => {
  it("doubles the cap each retry, capped by maxDelayMs", async () => {
    server.script(...Array.from({ length: 6 }, () => limited()));
    const { client, waits } = clientWith({
      maxRetries: 5,
      baseDelayMs: 1000,
      maxDelayMs: 5000,
      random: () => 0.5,
    });
    const { response } = await client.GET("/pets");
    expect(response.status).toBe(429);
    // caps 1000, 2000, 4000, 5000 (capped), 5000: half of each
    expect(waits).toEqual([500, 1000, 2000, 2500, 2500]);
    expect(server.requests).toHaveLength(6);
  });

  it("keeps every jittered wait within [0, min(maxDelayMs, base * 2^retry)]", async () => {
    const samples = [0, 0.999_999_9, 0.25, 0.5, 0.75, 0.01, 0.99];
    let next = 0;
    const random = () => samples[next++ % samples.length] ?? 0;
    const maxRetries = 8;
    const rounds = 6;
    const { client, waits } = clientWith({
      maxRetries,
      baseDelayMs: 100,
      maxDelayMs: 3000,
      random,
    });
    for (let round = 0; round < rounds; round++) {
      server.script(...Array.from({ length: maxRetries + 1 }, () => limited()));
      await client.GET("/pets");
    }
    expect(waits).toHaveLength(maxRetries * rounds);
    waits.forEach((wait, i) => {
      const cap = Math.min(3000, 100 * 2 ** (i % maxRetries));
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThanOrEqual(cap);
    });
    expect(new Set(waits).size).toBeGreaterThan(maxRetries);
    expect(waits).toContain(0);
    expect(waits).toContain(2999);
  });
});

describe("gateway failures and network errors", () => {
  it("retries 503 for GET", async () => {
    server.script(
      { status: 503, body: { code: "service_unavailable", message: "down", status: 503 } },
      { status: 502, body: {} },
      { status: 504, body: {} },
      { status: 200, body: [PET] },
    );
    const { client, waits } = clientWith({ baseDelayMs: 100, random: () => 1 - 1e-9 });
    const { data } = await client.GET("/pets");
    expect(data).toEqual([PET]);
    expect(waits).toEqual([99, 199, 399]);
  });

  it("does not retry 503 for POST", async () => {
    server.script({
      status: 503,
      body: { code: "service_unavailable", message: "down", status: 503 },
    });
    const { client, waits } = clientWith();
    const { error } = await client.POST("/pets", { body: { name: "Rex", categoryId: 1 } });
    expect(error?.code).toBe("service_unavailable");
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a dropped connection for GET", async () => {
    server.script({ dropConnection: true }, { status: 200, body: [PET] });
    const { client, waits } = clientWith();
    const { data } = await client.GET("/pets");
    expect(data).toEqual([PET]);
    expect(waits).toEqual([250]);
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a dropped connection for POST", async () => {
    server.script({ dropConnection: true });
    const { client, waits } = clientWith();
    await expect(
      client.POST("/pets", { body: { name: "Rex", categoryId: 1 } }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("throws the network error once retries run out", async () => {
    server.script(...Array.from({ length: 3 }, () => ({ dropConnection: true as const })));
    const { client, waits } = clientWith({ maxRetries: 2 });
    await expect(client.GET("/pets")).rejects.toBeInstanceOf(TypeError);
    expect(waits).toHaveLength(2);
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry anything when retry is false", async () => {
    server.script(limited({ "retry-after": "1" }));
    const client = createAnimalStoreClient({
      baseUrl: `${server.url}${basePath}`,
      apiKey: "k",
      retry: false,
    });
    const { response } = await client.GET("/pets");
    expect(response.status).toBe(429);
    expect(server.requests).toHaveLength(1);
  });

  it("reads a rotating key again for every attempt", async () => {
    server.script(limited({ "retry-after": "1" }), { status: 200, body: [] });
    let n = 0;
    const clock = fakeClock(START);
    const client = createAnimalStoreClient({
      baseUrl: `${server.url}${basePath}`,
      getApiKey: async () => `rotating-${++n}`,
      retry: { now: clock.now, sleep: clock.sleep },
    });
    await client.GET("/pets");
    expect(server.requests.map((r) => r.authorization)).toEqual([
      "Bearer rotating-1",
      "Bearer rotating-2",
    ]);
  });
});
