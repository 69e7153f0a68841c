// How a call reaches fetch. With no middleware and the global fetch, the client hands fetch the
// URL and init (fetch builds the only Request); a middleware, or a custom fetch, gets a real
// Request. A call fetch's Request constructor refuses fails with that error, not a retried
// network error.
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createAnimalStoreClient, NetworkError } from "../src/index.js";
import { fakeClock, type ScriptedServer, startScriptedServer } from "./scripted-server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());
afterEach(() => vi.restoreAllMocks());

const PET = { id: 1, name: "Rex", categoryId: 1 };
const options = () => {
  const clock = fakeClock(Date.UTC(2030, 0, 1));
  return {
    baseUrl: `${server.url}${basePath}`,
    apiKey: "k",
    retry: { now: clock.now, sleep: clock.sleep, random: () => 0.5 },
  };
};

/** What the global fetch was handed on each call. */
function spyOnFetch() {
  return vi.spyOn(globalThis, "fetch");
}

describe("calls with no middleware", () => {
  it("hand fetch the URL and an init with every header and the body, no Request", async () => {
    server.script({ status: 201, body: PET });
    const fetchSpy = spyOnFetch();
    const client = createAnimalStoreClient(options());
    const { data } = await client.POST("/pets", { body: { name: "Rex", categoryId: 1 } });
    expect(data).toEqual(PET);
    const [input, init] = fetchSpy.mock.calls[0] ?? [];
    expect(typeof input).toBe("string");
    expect(input).toBe(`${server.url}${basePath}/pets`);
    expect(init?.method).toBe("POST");
    // A plain call's headers: a plain object (no Headers for fetch to copy), set by the client.
    expect(init?.headers).not.toBeInstanceOf(Headers);
    expect(Object.keys(init?.headers ?? {}).sort()).toEqual([
      "authorization",
      "content-type",
      "x-request-id",
    ]);
    const [seen] = server.requests;
    expect(seen?.authorization).toBe("Bearer k");
    expect(seen?.requestId).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(JSON.parse(seen?.body ?? "")).toEqual({ name: "Rex", categoryId: 1 });
  });

  it("re-send the same body and request id on a retry, timed ones included", async () => {
    server.script(
      { status: 429, headers: { "retry-after": "1" }, body: {} },
      { status: 201, body: PET },
    );
    const client = createAnimalStoreClient(options());
    const { data } = await client.POST("/pets", {
      body: { name: "Rex", categoryId: 1 },
      timeoutMs: 5_000,
    });
    expect(data).toEqual(PET);
    const [first, second] = server.requests;
    expect(second?.body).toBe(first?.body);
    expect(second?.requestId).toBe(first?.requestId);
  });

  it("fail with the Request constructor's own error, not a retried network error", async () => {
    const client = createAnimalStoreClient(options());
    // fetch refuses TRACE before anything is sent; a retry could never help.
    const failure = await client.TRACE("/pets" as never).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).not.toBeInstanceOf(NetworkError);
    expect(String(failure)).toMatch(/TRACE/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("a middleware or a custom fetch", () => {
  it("gets a real Request, whose header changes are sent", async () => {
    server.script({ status: 200, body: [] });
    const client = createAnimalStoreClient(options());
    const seen: unknown[] = [];
    client.use({
      onRequest({ request }) {
        seen.push(request);
        request.headers.set("x-from-middleware", "yes");
      },
    });
    const fetchSpy = spyOnFetch();
    await client.GET("/pets");
    expect(seen[0]).toBeInstanceOf(Request);
    expect(fetchSpy.mock.calls[0]?.[0]).toBeInstanceOf(Request);
    expect(server.requests[0]?.authorization).toBe("Bearer k");
  });

  it("gets a real Request from a per-call middleware too", async () => {
    server.script({ status: 200, body: [] });
    const client = createAnimalStoreClient(options());
    const seen: unknown[] = [];
    await client.GET("/pets", {
      middleware: [{ onRequest: ({ request }) => void seen.push(request) }],
    });
    expect(seen[0]).toBeInstanceOf(Request);
  });

  it("a custom fetch is handed a Request", async () => {
    server.script({ status: 200, body: [] });
    const handed: unknown[] = [];
    const client = createAnimalStoreClient({
      ...options(),
      fetch: (request) => {
        handed.push(request);
        return fetch(request);
      },
    });
    await client.GET("/pets");
    expect(handed[0]).toBeInstanceOf(Request);
    expect(server.requests[0]?.authorization).toBe("Bearer k");
  });
});
