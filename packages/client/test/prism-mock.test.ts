// The client against the real Prism mock, started the way `pnpm mock` starts it (the launcher of
// apps/mock, on a free port): a frontend switches to the mock by changing only `baseUrl`.

import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { headerExamples, operationAt } from "@animal-store/test-support/spec";
import { basePath, deprecationOf } from "@animal-store/test-support/spec-values";
import { parseList } from "structured-headers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  createAnimalStoreClient,
  type DeprecationNotice,
  type Pet,
  unwrap,
} from "../src/index.js";
import { fakeClock } from "./scripted-server.js";

const LAUNCHER = fileURLToPath(new URL("../../../apps/mock/src/main.mjs", import.meta.url));

let mock: ChildProcess | undefined;
let baseUrl = "";

beforeAll(async () => {
  const child = spawn(process.execPath, [LAUNCHER, "--host", "127.0.0.1", "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  mock = child;
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
      const match = /serving .* at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the mock exited with ${code}:\n${output}`)));
  });
}, 30_000);

afterAll(async () => {
  if (mock && mock.exitCode === null && mock.signalCode === null) {
    const exited = once(mock, "exit");
    mock.kill("SIGTERM");
    await exited;
  }
});

const quietClient = (extra: { onDeprecation?: (n: DeprecationNotice) => void } = {}) =>
  createAnimalStoreClient({
    baseUrl,
    apiKey: "any-key-works-on-the-mock",
    onDeprecation: () => undefined,
    ...extra,
  });

describe("the client on the Prism mock", () => {
  it(`serves under the same ${basePath} base path as the server`, () => {
    expect(new URL(baseUrl).pathname).toBe(basePath);
  });

  it("lists the spec's example pets, typed, with rate-limit values", async () => {
    const client = quietClient();
    const result = await client.GET("/pets", { params: { query: { limit: 3 } } });
    const pets: Pet[] = unwrap(result);
    expect(pets.map((pet) => pet.name)).toEqual(["Rex", "Tom", "Nemo"]);
    // The IETF fields' examples are read (the member with the fewest left), and agree with the
    // X-RateLimit-* examples; the reset is the answer's Date plus the member's t.
    const declared = headerExamples("/pets", "get", "200");
    const [binding] = parseList(declared.RateLimit ?? "")
      .map(([name, params]) => ({ name, r: params.get("r"), t: params.get("t") }))
      .sort((a, b) => Number(a.r) - Number(b.r));
    const policy = parseList(declared["RateLimit-Policy"] ?? "").find(
      ([name]) => name === binding?.name,
    );
    const date = Date.parse(result.response.headers.get("date") ?? "");
    expect(client.rateLimit).toEqual({
      limit: policy?.[1].get("q"),
      remaining: binding?.r,
      resetAt: new Date(date + Number(binding?.t) * 1000),
    });
    expect(client.rateLimit?.limit).toBe(Number(declared["X-RateLimit-Limit"]));
    expect(client.rateLimit?.remaining).toBe(Number(declared["X-RateLimit-Remaining"]));
  });

  it("pages on the mock: the example page, its example next link followed, then the loop is refused", async () => {
    const seen: Pet[][] = [];
    const walk = async () => {
      for await (const page of quietClient().pages("/pets")) seen.push(page.data);
    };
    // The mock answers every page with the same example and the same next link: the client
    // follows it once, and refuses to read that page again rather than walk forever.
    await expect(walk()).rejects.toThrow(/or loops/);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toEqual(seen[0]);
  });

  it("creates a pet", async () => {
    const { data, response } = await quietClient().POST("/pets", {
      body: { name: "Rex", categoryId: 1, status: "available" },
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ id: expect.any(Number), name: "Rex", categoryId: 1 });
  });

  it("reports getPet's deprecation with its sunset", async () => {
    const notices: DeprecationNotice[] = [];
    const client = quietClient({ onDeprecation: (notice) => notices.push(notice) });
    const pet = unwrap(await client.GET("/pets/{petId}", { params: { path: { petId: 1 } } }));
    expect(pet.id).toBe(1);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.operation).toBe("getPet");
    const spec = deprecationOf(operationAt("/pets/{petId}", "get"));
    expect(notices[0]?.sunset).toEqual(spec?.sunset);
    expect(notices[0]?.deprecatedAt).toEqual(spec?.since);
    expect(notices[0]?.link).toMatch(/successor-version/);
  });

  it("returns the spec's Error for a request without credentials", async () => {
    const client = createAnimalStoreClient({
      baseUrl,
      apiKey: "dropped-below",
      fetch: (request) => {
        request.headers.delete("authorization");
        return fetch(request);
      },
    });
    const { error, response } = await client.GET("/pets");
    expect(response.status).toBe(401);
    expect(error).toEqual({
      code: "unauthorized",
      message: expect.any(String),
      status: 401,
    });
  });

  it("returns a typed error branch the caller can throw as ApiError", async () => {
    const client = quietClient();
    const result = await client.GET("/pets/{petId}", {
      params: { path: { petId: 42 } },
      headers: { Prefer: "code=404" },
    });
    expect(result.error?.code).toBe("not_found");
    expect(() => unwrap(result)).toThrow(ApiError);
  });

  it("never retries a mock 429 sooner than its Retry-After", async () => {
    const clock = fakeClock(Date.UTC(2030, 0, 1));
    const client = createAnimalStoreClient({
      baseUrl,
      apiKey: "k",
      retry: { maxRetries: 2, maxDelayMs: 60_000, now: clock.now, sleep: clock.sleep },
    });
    const { error, response } = await client.GET("/pets", { headers: { Prefer: "code=429" } });
    expect(response.status).toBe(429);
    expect(error?.status).toBe(429);
    const retryAfterMs = Number(response.headers.get("retry-after")) * 1000;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(clock.waits).toEqual([retryAfterMs, retryAfterMs]);
  });
});
