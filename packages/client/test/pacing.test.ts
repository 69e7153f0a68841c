// Pacing against a real local HTTP server whose answers carry scripted X-RateLimit-* (or the IETF
// RateLimit and RateLimit-Policy fields, or both) and Date headers: a call after `Remaining: 0` waits for the reset (in the server's time, corrected by
// `Date`) instead of drawing a 429; a wait too long is refused without sending; the opt-out.
// Waits go through an injected clock (recorded, never timed).
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createAnimalStoreClient,
  type PacingOptions,
  type PacingWaitEvent,
  RateLimitError,
  TimeoutError,
} from "../src/index.js";
import { fakeClock, type ScriptedServer, startScriptedServer } from "./scripted-server.js";

const NOW = Date.UTC(2030, 0, 1, 12, 0, 20); // client clock at the start of each test

/** An answer as a server whose clock reads `serverNow` would send it. */
function answer(remaining: number, resetInSeconds: number, serverNow = NOW) {
  return {
    status: 200,
    headers: {
      date: new Date(serverNow).toUTCString(),
      "x-ratelimit-limit": "60",
      "x-ratelimit-remaining": String(remaining),
      "x-ratelimit-reset": String(Math.floor(serverNow / 1000) + resetInSeconds),
    },
    body: [],
  };
}

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function pacedClient(pacing?: PacingOptions | false, deadlineMs?: number) {
  const clock = fakeClock(NOW);
  const client = createAnimalStoreClient({
    baseUrl: `${server.url}${basePath}`,
    apiKey: "k",
    retry: { now: clock.now, sleep: clock.sleep },
    pacing,
    deadlineMs,
  });
  return { client, waits: clock.waits };
}

describe("after X-RateLimit-Remaining: 0", () => {
  it("the next call waits until X-RateLimit-Reset, then goes", async () => {
    server.script(answer(0, 40), answer(59, 60, NOW + 40_000));
    const { client, waits } = pacedClient();
    await client.GET("/pets");
    const { response } = await client.GET("/pets");
    expect(response.status).toBe(200);
    expect(waits).toEqual([40_000]);
    expect(server.requests).toHaveLength(2);
  });

  it("does not wait while requests are left", async () => {
    server.script(answer(1, 40), answer(0, 40));
    const { client, waits } = pacedClient();
    await client.GET("/pets");
    await client.GET("/pets");
    expect(waits).toEqual([]);
  });

  it("reads the reset in the server's time: a server 25 s behind the client", async () => {
    server.script(answer(0, 10, NOW - 25_000), answer(59, 60, NOW - 15_000));
    const { client, waits } = pacedClient();
    await client.GET("/pets");
    await client.GET("/pets");
    // 10 s of the server's window are left; without the Date header's correction the client
    // would take the reset as 15 s past and send at once, into a 429.
    expect(waits).toEqual([10_000]);
  });

  it("reads the reset in the server's time: a server 25 s ahead of the client", async () => {
    server.script(answer(0, 10, NOW + 25_000), answer(59, 60, NOW + 35_000));
    const { client, waits } = pacedClient();
    await client.GET("/pets");
    await client.GET("/pets");
    expect(waits).toEqual([10_000]);
  });

  it("tells pacing.onWait", async () => {
    server.script(answer(0, 30), answer(59, 60));
    const events: PacingWaitEvent[] = [];
    const { client } = pacedClient({ onWait: (event) => events.push(event) });
    await client.GET("/pets");
    await client.GET("/pets/{petId}", { params: { path: { petId: 1 } } });
    expect(events).toEqual([{ operationId: "getPet", delayMs: 30_000, reason: "window" }]);
  });

  it("ignores a reset already past (a mock's example values)", async () => {
    server.script(answer(0, -3600), answer(0, -3600));
    const { client, waits } = pacedClient();
    await client.GET("/pets");
    await client.GET("/pets");
    expect(waits).toEqual([]);
  });
});

/**
 * An answer with the IETF fields (draft-ietf-httpapi-ratelimit-headers-10) as the engine writes
 * them: a minute window with `remaining` left resetting in `resetInSeconds`, a roomy day; with
 * `legacy`, X-RateLimit-* too, saying `legacy` remain.
 */
function ietfAnswer(remaining: number, resetInSeconds: number, legacy?: number) {
  const headers: Record<string, string> = {
    date: new Date(NOW).toUTCString(),
    "ratelimit-policy": '"minute";q=60;w=60, "day";q=1000;w=86400',
    ratelimit: `"minute";r=${remaining};t=${resetInSeconds}, "day";r=900;t=40000`,
  };
  if (legacy !== undefined) {
    Object.assign(headers, answer(legacy, resetInSeconds).headers);
  }
  return { status: 200, headers, body: [] };
}

describe("pacing on the IETF RateLimit field", () => {
  it("after r=0 alone (no X-RateLimit-*), the next call waits t seconds from Date", async () => {
    server.script(ietfAnswer(0, 40), ietfAnswer(59, 60));
    const { client, waits } = pacedClient();
    await client.GET("/pets");
    const { response } = await client.GET("/pets");
    expect(response.status).toBe(200);
    expect(waits).toEqual([40_000]);
  });

  it("with both, RateLimit is the one read: r=0 waits though X-RateLimit-Remaining says 5", async () => {
    server.script(ietfAnswer(0, 40, 5), ietfAnswer(59, 60, 59));
    const { client, waits } = pacedClient();
    await client.GET("/pets");
    await client.GET("/pets");
    expect(waits).toEqual([40_000]);
  });

  it("with both, r=5 sends at once though X-RateLimit-Remaining says 0", async () => {
    server.script(ietfAnswer(5, 40, 0), ietfAnswer(4, 40, 0));
    const { client, waits } = pacedClient();
    await client.GET("/pets");
    await client.GET("/pets");
    expect(waits).toEqual([]);
  });
});

describe("waits the client will not make", () => {
  it("refuses, without sending, a call that would wait past pacing.maxWaitMs", async () => {
    // The day's quota is used up: the window resets in five hours.
    server.script(answer(0, 5 * 3600));
    const { client, waits } = pacedClient({ maxWaitMs: 65_000 });
    await client.GET("/pets");
    const error = await client.GET("/pets").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      operationId: "listPets",
      attempts: 0,
      retryAt: new Date(Math.floor(NOW / 1000) * 1000 + 5 * 3600 * 1000),
    });
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("refuses calls after a 429 whose Retry-After is past maxWaitMs (a ban)", async () => {
    const banned = { code: "api_key_banned", message: "banned", status: 429 };
    server.script({ status: 429, headers: { "retry-after": "600" }, body: banned });
    const { client } = pacedClient();
    const first = await client.GET("/pets");
    expect(first.error).toEqual(banned);
    await expect(client.GET("/pets")).rejects.toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(1);
  });

  it("refuses at once a call that pacing would hold past deadlineMs, saying so and when the window opens", async () => {
    server.script(answer(0, 40));
    const { client, waits } = pacedClient(undefined, 10_000);
    await client.GET("/pets");
    const error = await client.GET("/pets").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    const opensAt = new Date(Math.floor(NOW / 1000) * 1000 + 40_000);
    expect(error).toMatchObject({ reason: "deadline", attempts: 0, retryAt: opensAt });
    expect((error as Error).message).toContain("pacing holds it back");
    expect((error as Error).message).toContain(opensAt.toISOString());
    expect((error as Error).message).toContain("deadlineMs 10000 ms");
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe("a 429 whose X-RateLimit-Reset is later than its Retry-After", () => {
  /** The outside probe's answer: Retry-After 1 s, the window said to reset 30 s later. */
  const limited = {
    status: 429,
    headers: {
      date: new Date(NOW).toUTCString(),
      "retry-after": "1",
      "x-ratelimit-limit": "60",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(Math.floor(NOW / 1000) + 30),
    },
    body: { code: "rate_limited", message: "Rate limit exceeded.", status: 429 },
  };

  it("retries after Retry-After, not after the reset", async () => {
    server.script(limited, limited, limited, answer(59, 60, NOW + 3_000));
    const clock = fakeClock(NOW);
    const client = createAnimalStoreClient({
      baseUrl: `${server.url}${basePath}`,
      apiKey: "k",
      retry: { maxRetries: 3, maxDelayMs: 5000, now: clock.now, sleep: clock.sleep },
    });
    const { response } = await client.GET("/pets", { onRetry: () => undefined });
    expect(response.status).toBe(200);
    expect(clock.waits).toEqual([1000, 1000, 1000]);
    expect(server.requests).toHaveLength(4);
  });

  it("never waits longer than maxDelayMs before a retry, whatever else holds calls back", async () => {
    // Two calls in flight: the first draws a 429 pausing every call for 10 s (over maxDelayMs, so
    // it is returned), the second a 429 saying 1 s. Retrying the second would mean waiting out
    // the first's pause: 10 s, past maxDelayMs. It returns its 429 instead.
    const pausing = { ...limited, headers: { ...limited.headers, "retry-after": "10" } };
    server.script(answer(59, 60), pausing, { ...limited, delayMs: 100 });
    const clock = fakeClock(NOW);
    const client = createAnimalStoreClient({
      baseUrl: `${server.url}${basePath}`,
      apiKey: "k",
      retry: { maxRetries: 3, maxDelayMs: 5000, now: clock.now, sleep: clock.sleep },
    });
    await client.GET("/pets");
    const [first, second] = await Promise.all([client.GET("/pets"), client.GET("/pets")]);
    expect([first.response.status, second.response.status]).toEqual([429, 429]);
    expect(clock.waits).toEqual([]);
    expect(server.requests).toHaveLength(3);
  });
});

describe("pacing: false", () => {
  it("sends at once after Remaining: 0", async () => {
    server.script(answer(0, 40), answer(0, 40));
    const { client, waits } = pacedClient(false);
    await client.GET("/pets");
    await client.GET("/pets");
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it("still retries a 429 after its Retry-After", async () => {
    const limited = { status: 429, headers: { "retry-after": "3" }, body: {} };
    server.script(limited, { status: 200, body: [] });
    const { client, waits } = pacedClient(false);
    await client.GET("/pets", { onRetry: () => undefined });
    expect(waits).toEqual([3000]);
  });
});
