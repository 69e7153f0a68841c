// Aborting while the client waits out a 429: the call rejects at once with the signal's reason,
// and no further request is sent.
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAnimalStoreClient } from "../src/index.js";
import { abortableSleep } from "../src/sleep.js";
import { type ScriptedServer, startScriptedServer } from "./scripted-server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const limited = {
  status: 429,
  headers: { "retry-after": "600" },
  body: { code: "rate_limited", message: "Rate limit exceeded.", status: 429 },
};

/** A client whose sleep is the real timer but tells the test when a wait starts. */
function clientThatReportsWaits() {
  const waits: number[] = [];
  let waiting: (ms: number) => void = () => undefined;
  const waitStarted = new Promise<number>((resolve) => {
    waiting = resolve;
  });
  const client = createAnimalStoreClient({
    baseUrl: `${server.url}${basePath}`,
    apiKey: "abort-key",
    retry: {
      maxDelayMs: 3_600_000,
      sleep: (ms, signal) => {
        waits.push(ms);
        waiting(ms);
        return abortableSleep(ms, signal);
      },
    },
  });
  return { client, waits, waitStarted };
}

describe("abort during a Retry-After wait", () => {
  it("rejects with an AbortError and sends nothing more", async () => {
    server.script(limited);
    const { client, waitStarted } = clientThatReportsWaits();
    const controller = new AbortController();
    const call = client.GET("/pets", { signal: controller.signal });
    expect(await waitStarted).toBe(600_000);
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    expect(server.requests).toHaveLength(1);
  });

  it("rejects with the signal's own reason", async () => {
    server.script(limited);
    const { client, waitStarted } = clientThatReportsWaits();
    const controller = new AbortController();
    const reason = new Error("user navigated away");
    const call = client.POST("/pets", {
      body: { name: "Rex", categoryId: 1 },
      signal: controller.signal,
    });
    await waitStarted;
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it("still stops when an injected sleep ignores the signal", async () => {
    server.script(limited, { status: 200, body: [] });
    const controller = new AbortController();
    const client = createAnimalStoreClient({
      baseUrl: `${server.url}${basePath}`,
      apiKey: "abort-key",
      retry: {
        maxDelayMs: 3_600_000,
        sleep: async () => {
          controller.abort();
        },
      },
    });
    await expect(client.GET("/pets", { signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(server.requests).toHaveLength(1);
  });
});

describe("abortableSleep", () => {
  it("resolves after the wait", async () => {
    await expect(abortableSleep(1)).resolves.toBeUndefined();
  });

  it("rejects at once when the signal has already aborted", async () => {
    const reason = new Error("stop");
    await expect(abortableSleep(60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it("rejects when the signal aborts mid-wait", async () => {
    const controller = new AbortController();
    const wait = abortableSleep(60_000, controller.signal);
    controller.abort();
    await expect(wait).rejects.toMatchObject({ name: "AbortError" });
  });
});
