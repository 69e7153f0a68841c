// timeoutMs (per attempt) and deadlineMs (per call) against a real local HTTP server that never
// answers or answers late: the typed TimeoutError, which attempts are retried, the deadline over
// waits, and the caller's abort winning over both. Waits between attempts go through an injected
// sleep (recorded, never timed); only the attempts themselves run on real timers.
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createAnimalStoreClient,
  type RetryEvent,
  type RetryOptions,
  TimeoutError,
} from "../src/index.js";
import { fakeClock, type ScriptedServer, startScriptedServer } from "./scripted-server.js";

const START = Date.UTC(2030, 0, 1, 12, 0, 0);
const PET = { id: 7, name: "Rex", categoryId: 1 };
// An attempt's timeout for tests that count the requests the server saw: an attempt aborted
// sooner may never reach it when the machine is busy.
const ARRIVES_MS = 300;

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function clientWith(options: { timeoutMs?: number; deadlineMs?: number; retry?: RetryOptions }) {
  const clock = fakeClock(START);
  const retries: RetryEvent[] = [];
  const client = createAnimalStoreClient({
    baseUrl: `${server.url}${basePath}`,
    apiKey: "k",
    timeoutMs: options.timeoutMs,
    deadlineMs: options.deadlineMs,
    retry: { now: clock.now, sleep: clock.sleep, random: () => 0.5, ...options.retry },
    onRetry: (event) => retries.push(event),
  });
  return { client, waits: clock.waits, retries };
}

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error("the call did not reject");
    },
    (error: unknown) => error,
  );
}

describe("timeoutMs: one attempt", () => {
  it("retries a GET that times out, then rejects with a TimeoutError naming the call", async () => {
    server.script({ hang: true }, { hang: true }, { hang: true });
    // Long enough for each attempt to reach the server on a loaded CI machine (40 ms was not):
    // the test counts arrivals.
    const { client, retries } = clientWith({ timeoutMs: ARRIVES_MS, retry: { maxRetries: 2 } });
    const error = await rejection(client.GET("/pets"));
    expect(error).toBeInstanceOf(TimeoutError);
    const timeout = error as TimeoutError;
    expect(timeout).toMatchObject({
      name: "TimeoutError",
      kind: "attempt",
      timeoutMs: ARRIVES_MS,
      operationId: "listPets",
      attempts: 3,
    });
    expect(server.requests).toHaveLength(3);
    const sentIds = server.requests.map((r) => r.requestId);
    expect(new Set(sentIds)).toEqual(new Set([timeout.requestId]));
    expect(timeout.message).toContain(String(timeout.requestId));
    expect(retries.map((r) => [r.attempt, r.error instanceof TimeoutError])).toEqual([
      [1, true],
      [2, true],
    ]);
  });

  it("does not retry a POST that timed out: the server may have created the pet", async () => {
    server.script({ hang: true }, { status: 201, body: PET });
    const { client, retries } = clientWith({ timeoutMs: ARRIVES_MS });
    const error = await rejection(client.POST("/pets", { body: { name: "Rex", categoryId: 1 } }));
    expect(error).toMatchObject({ kind: "attempt", operationId: "createPet", attempts: 1 });
    expect(server.requests).toHaveLength(1);
    expect(retries).toEqual([]);
  });

  it("returns the answer of a retry after one attempt timed out", async () => {
    server.script({ hang: true }, { status: 200, body: [PET] });
    const { client, retries } = clientWith({ timeoutMs: 40 });
    const result = await client.GET("/pets");
    expect(result.data).toEqual([PET]);
    expect(result.meta.attempts).toBe(2);
    expect(retries).toHaveLength(1);
  });

  it("leaves an answer that comes in time alone", async () => {
    server.script({ status: 200, body: [PET], delayMs: 20 });
    const { client } = clientWith({ timeoutMs: 5_000 });
    expect((await client.GET("/pets")).data).toEqual([PET]);
  });

  it("takes a call's own timeoutMs over the client's", async () => {
    server.script({ hang: true });
    const { client } = clientWith({ timeoutMs: 60_000, retry: { maxRetries: 0 } });
    const error = await rejection(client.GET("/pets", { timeoutMs: 30 }));
    expect(error).toMatchObject({ kind: "attempt", timeoutMs: 30 });
  });

  it("works per call on a client without defaults", async () => {
    server.script({ hang: true });
    const { client } = clientWith({ retry: { maxRetries: 0 } });
    const call = client.GET("/pets/{petId}", { params: { path: { petId: 1 } }, timeoutMs: 30 });
    expect(await rejection(call)).toMatchObject({ kind: "attempt", operationId: "getPet" });
  });
});

describe("deadlineMs: the whole call", () => {
  it("ends a hanging attempt with kind 'deadline' and does not retry it", async () => {
    server.script({ hang: true }, { status: 200, body: [] });
    const { client, retries } = clientWith({ deadlineMs: ARRIVES_MS });
    const error = await rejection(client.GET("/pets"));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ kind: "deadline", timeoutMs: ARRIVES_MS, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    expect(retries).toEqual([]);
  });

  it("does not start a retry wait that ends past it: the last answer is returned", async () => {
    const unavailable = { code: "service_unavailable", message: "down", status: 503 };
    server.script({ status: 503, headers: { "retry-after": "5" }, body: unavailable });
    const { client, waits } = clientWith({ deadlineMs: 4_000 });
    const { error, response } = await client.GET("/pets");
    expect(response.status).toBe(503);
    expect(error).toEqual(unavailable);
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("counts the waits: retries go on while they fit", async () => {
    const unavailable = { status: 503, headers: { "retry-after": "2" }, body: {} };
    server.script(unavailable, unavailable, unavailable, { status: 200, body: [] });
    const { client, waits } = clientWith({ deadlineMs: 5_000 });
    const { response } = await client.GET("/pets");
    // 2 s + 2 s fit in 5 s; a third wait of 2 s would end at 6 s.
    expect(response.status).toBe(503);
    expect(waits).toEqual([2000, 2000]);
    expect(server.requests).toHaveLength(3);
  });
});

describe("the caller's abort wins", () => {
  it("rejects with the signal's reason, not a TimeoutError, during an attempt", async () => {
    server.script({ hang: true });
    server.onRequest = () => controller.abort(reason);
    const controller = new AbortController();
    const reason = new Error("user left the page");
    const { client } = clientWith({ timeoutMs: 10_000, deadlineMs: 20_000 });
    await expect(client.GET("/pets", { signal: controller.signal })).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it("sends nothing for a signal that has already aborted", async () => {
    const { client } = clientWith({ timeoutMs: 1_000 });
    const reason = new Error("already gone");
    await expect(client.GET("/pets", { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });
});

describe("option checks", () => {
  it("rejects a timeout that is not a positive number of ms", () => {
    for (const bad of [0, -1, Number.NaN, 2 ** 31]) {
      expect(() =>
        createAnimalStoreClient({ baseUrl: basePath, apiKey: "k", timeoutMs: bad }),
      ).toThrow(/timeoutMs/);
      expect(() =>
        createAnimalStoreClient({ baseUrl: basePath, apiKey: "k", deadlineMs: bad }),
      ).toThrow(/deadlineMs/);
    }
  });
});
