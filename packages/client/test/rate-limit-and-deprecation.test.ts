// What the client reads from response headers, against a real local HTTP server: the latest
// X-RateLimit-* values, and one deprecation notice per operation per client.
import { basePath, deprecated as specDeprecated } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createAnimalStoreClient, type DeprecationNotice } from "../src/index.js";
import { type ScriptedServer, startScriptedServer } from "./scripted-server.js";

const PET = { id: 1, name: "Rex", categoryId: 1 };
// What a deprecated operation answers with: the spec's first deprecated operation's headers.
const [shown] = specDeprecated as [(typeof specDeprecated)[number]];
const deprecated = {
  deprecation: shown.headers.Deprecation as string,
  sunset: shown.headers.Sunset as string,
  link: `<${basePath}/pets>; rel="successor-version"`,
};
const rateLimit = (limit: number, remaining: number, reset: number) => ({
  "x-ratelimit-limit": String(limit),
  "x-ratelimit-remaining": String(remaining),
  "x-ratelimit-reset": String(reset),
});

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("rate-limit values", () => {
  it("are undefined before the first response, then follow the latest one", async () => {
    const client = createAnimalStoreClient({ baseUrl: `${server.url}${basePath}`, apiKey: "k" });
    expect(client.rateLimit).toBeUndefined();
    server.script(
      { status: 200, headers: rateLimit(60, 59, 1767225660), body: [] },
      { status: 200, headers: rateLimit(60, 58, 1767225660), body: [] },
      { status: 200, body: [] },
    );
    await client.GET("/pets");
    expect(client.rateLimit).toEqual({
      limit: 60,
      remaining: 59,
      resetAt: new Date("2026-01-01T00:01:00Z"),
    });
    await client.GET("/pets");
    expect(client.rateLimit?.remaining).toBe(58);
    // A response without the headers (say, from a proxy) keeps the last known values.
    await client.GET("/pets");
    expect(client.rateLimit?.remaining).toBe(58);
  });

  it("are read from a 429 too, before it is retried", async () => {
    const client = createAnimalStoreClient({
      baseUrl: `${server.url}${basePath}`,
      apiKey: "k",
      retry: { maxRetries: 0 },
    });
    server.script({
      status: 429,
      headers: { ...rateLimit(300, 0, 1767225720), "retry-after": "60" },
      body: { code: "rate_limited", message: "slow down", status: 429 },
    });
    await client.GET("/pets");
    expect(client.rateLimit).toEqual({
      limit: 300,
      remaining: 0,
      resetAt: new Date(1767225720 * 1000),
    });
  });
});

describe("deprecation notices", () => {
  it("reach onDeprecation once per operation, named by operationId", async () => {
    const notices: DeprecationNotice[] = [];
    const client = createAnimalStoreClient({
      baseUrl: `${server.url}${basePath}`,
      apiKey: "k",
      onDeprecation: (notice) => notices.push(notice),
    });
    server.script(
      { status: 200, headers: deprecated, body: PET },
      { status: 404, headers: deprecated, body: { code: "not_found", message: "x", status: 404 } },
      { status: 200, body: [] },
    );
    await client.GET("/pets/{petId}", { params: { path: { petId: 1 } } });
    await client.GET("/pets/{petId}", { params: { path: { petId: 2 } } });
    await client.GET("/pets");
    expect(notices).toEqual([
      {
        operation: "getPet",
        deprecatedAt: shown.deprecation.since,
        sunset: shown.deprecation.sunset,
        link: `<${basePath}/pets>; rel="successor-version"`,
      },
    ]);
  });

  it("are reported again by another client", async () => {
    const seen: string[] = [];
    const make = () =>
      createAnimalStoreClient({
        baseUrl: `${server.url}${basePath}`,
        apiKey: "k",
        onDeprecation: (notice) => seen.push(notice.operation),
      });
    server.script(
      { status: 200, headers: deprecated, body: PET },
      { status: 200, headers: deprecated, body: PET },
    );
    await make().GET("/pets/{petId}", { params: { path: { petId: 1 } } });
    await make().GET("/pets/{petId}", { params: { path: { petId: 1 } } });
    expect(seen).toEqual(["getPet", "getPet"]);
  });

  it("name each operation separately, even one the spec does not mark", async () => {
    const seen: string[] = [];
    const client = createAnimalStoreClient({
      baseUrl: `${server.url}${basePath}`,
      apiKey: "k",
      onDeprecation: (notice) => seen.push(notice.operation),
    });
    server.script(
      { status: 200, headers: { sunset: deprecated.sunset }, body: [] },
      { status: 201, headers: { deprecation: "true" }, body: PET },
      { status: 200, headers: deprecated, body: PET },
    );
    await client.GET("/pets");
    await client.POST("/pets", { body: { name: "Rex", categoryId: 1 } });
    await client.GET("/pets/{petId}", { params: { path: { petId: 1 } } });
    expect(seen).toEqual(["listPets", "createPet", "getPet"]);
  });

  it("default to a single console.warn", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const client = createAnimalStoreClient({ baseUrl: `${server.url}${basePath}`, apiKey: "k" });
      server.script(
        { status: 200, headers: deprecated, body: PET },
        { status: 200, headers: deprecated, body: PET },
      );
      await client.GET("/pets/{petId}", { params: { path: { petId: 1 } } });
      await client.GET("/pets/{petId}", { params: { path: { petId: 1 } } });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain(
        `getPet is deprecated; it will be removed on ${shown.deprecation.sunset?.toISOString()} (see <${basePath}/pets>`,
      );
    } finally {
      warn.mockRestore();
    }
  });
});
