// Which failures are retried for which method, against a real local HTTP server: 429 for every
// method; network errors, 408, 500, 502, 503 and 504 only for the idempotent ones (GET, HEAD,
// OPTIONS, PUT, DELETE). The spec has no PUT or DELETE, so those calls go through the untyped
// `request`; the client's retry rules do not depend on the spec.
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OPERATIONS } from "../src/generated/operations.js";
import { createAnimalStoreClient, NetworkError, type RetryEvent } from "../src/index.js";
import { fakeClock, type ScriptedServer, startScriptedServer } from "./scripted-server.js";

const IDEMPOTENT = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"] as const;
const NOT_IDEMPOTENT = ["POST", "PATCH"] as const;
const TRANSIENT = [408, 500, 502, 503, 504] as const;

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function clientWithRetries() {
  const clock = fakeClock(Date.UTC(2030, 0, 1));
  const retries: RetryEvent[] = [];
  const client = createAnimalStoreClient({
    baseUrl: `${server.url}${basePath}`,
    apiKey: "k",
    retry: { now: clock.now, sleep: clock.sleep, random: () => 0.5, maxRetries: 1 },
    onRetry: (event) => retries.push(event),
  });
  // Methods the spec does not have, sent the way a caller without types would.
  const send = (method: string) =>
    (client.request as (m: string, path: string, init?: object) => Promise<unknown>)(
      method.toLowerCase(),
      "/pets/{petId}",
      { params: { path: { petId: 1 } } },
    );
  return { send, retries, waits: clock.waits };
}

describe("statuses", () => {
  it.each(IDEMPOTENT.flatMap((method) => TRANSIENT.map((status) => [method, status] as const)))(
    "%s: %i is retried",
    async (method, status) => {
      server.script({ status, body: {} }, { status: 200, body: {} });
      const { send, retries } = clientWithRetries();
      await send(method);
      expect(server.requests.map((r) => r.method)).toEqual([method, method]);
      expect(retries).toEqual([
        expect.objectContaining({ status, attempt: 1, method, delayMs: 250 }),
      ]);
    },
  );

  it.each(NOT_IDEMPOTENT.flatMap((method) => TRANSIENT.map((status) => [method, status] as const)))(
    "%s: %i is returned as it is",
    async (method, status) => {
      server.script({ status, body: {} }, { status: 200, body: {} });
      const { send, retries } = clientWithRetries();
      await send(method);
      expect(server.requests).toHaveLength(1);
      expect(retries).toEqual([]);
    },
  );

  it.each([...IDEMPOTENT, ...NOT_IDEMPOTENT])("%s: 429 is retried", async (method) => {
    server.script({ status: 429, headers: { "retry-after": "1" }, body: {} }, { status: 200 });
    const { send, waits } = clientWithRetries();
    await send(method);
    expect(server.requests).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  it.each([400, 401, 404, 405, 409, 410, 413, 415, 501])("GET: %i is final", async (status) => {
    server.script({ status, body: {} }, { status: 200, body: {} });
    const { send } = clientWithRetries();
    await send("GET");
    expect(server.requests).toHaveLength(1);
  });
});

describe("network errors", () => {
  it.each(IDEMPOTENT)("%s: a dropped connection is retried", async (method) => {
    server.script({ dropConnection: true }, { status: 200, body: {} });
    const { send, retries } = clientWithRetries();
    await send(method);
    expect(server.requests).toHaveLength(2);
    expect(retries[0]?.error).toBeInstanceOf(NetworkError);
    expect(retries[0]?.status).toBeUndefined();
  });

  it.each(NOT_IDEMPOTENT)(
    "%s: a dropped connection rejects with a NetworkError naming the call",
    async (method) => {
      server.script({ dropConnection: true }, { status: 200, body: {} });
      const { send, retries } = clientWithRetries();
      const error = await send(method).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toBeInstanceOf(TypeError);
      expect(error).toMatchObject({
        name: "NetworkError",
        // The spec's operationId when it has this method on the path, else method and path.
        operationId:
          OPERATIONS.find((op) => op.method === method && op.path === "/pets/{petId}")
            ?.operationId ?? `${method} /pets/{petId}`,
        requestId: server.requests[0]?.requestId,
        attempts: 1,
      });
      expect((error as NetworkError).cause).toBeInstanceOf(TypeError);
      expect(server.requests).toHaveLength(1);
      expect(retries).toEqual([]);
    },
  );
});
