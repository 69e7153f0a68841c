// The client against a real @animal-store/server (embedded SQLite in a temp directory, port 0):
// create, list with a filter, get, every error branch typed as the spec's Error, rate-limit values
// and getPet's deprecation notice.

import { deref, loadBundledSpec } from "@animal-store/openapi";
import { type ScratchServer, startScratchServer } from "@animal-store/openapi-engine/testing";
import { animalStore, type Store } from "@animal-store/server";
import { awayFromMinuteEdge } from "@animal-store/test-support/minute-window";
import { operationAt } from "@animal-store/test-support/spec";
import { basePath, deprecationOf, pagedList } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  type ApiErrorBody,
  createAnimalStoreClient,
  type DeprecationNotice,
  type Pet,
  type PetStatus,
  unwrap,
} from "../src/index.js";
import { fakeClock } from "./scripted-server.js";

let server: ScratchServer<Store>;
let baseUrl = "";
let proKey = "";

beforeAll(async () => {
  server = await startScratchServer(animalStore, { name: "client-suite", key: { plan: "pro" } });
  baseUrl = server.apiUrl;
  proKey = server.key;
}, 30_000);

afterAll(async () => {
  await server?.close();
});

const clientFor = (apiKey: string, notices: DeprecationNotice[] = []) =>
  createAnimalStoreClient({ baseUrl, apiKey, onDeprecation: (notice) => notices.push(notice) });

describe("the client on the real server", () => {
  it("creates pets, lists them with a filter and gets one", async () => {
    const notices: DeprecationNotice[] = [];
    const client = clientFor(proKey, notices);
    const rex = unwrap(
      await client.POST("/pets", { body: { name: "Rex", categoryId: 1, status: "sold" } }),
    );
    const nemo = unwrap(await client.POST("/pets", { body: { name: "Nemo", categoryId: 3 } }));
    expect(rex).toEqual({ id: expect.any(Number), name: "Rex", categoryId: 1, status: "sold" });
    expect(nemo).toEqual({ id: expect.any(Number), name: "Nemo", categoryId: 3 });

    const sold: Pet[] = unwrap(
      await client.GET("/pets", { params: { query: { status: "sold", limit: pagedList().max } } }),
    );
    expect(sold).toContainEqual(rex);
    expect(sold.every((pet) => pet.status === "sold")).toBe(true);
    const page = unwrap(await client.GET("/pets", { params: { query: { limit: 1 } } }));
    expect(page).toHaveLength(1);

    const fetched = unwrap(
      await client.GET("/pets/{petId}", { params: { path: { petId: rex.id } } }),
    );
    expect(fetched).toEqual(rex);
    await client.GET("/pets/{petId}", { params: { path: { petId: nemo.id } } });
    // One notice per deprecated operation called, in the order first called, as the spec says.
    const called = [
      operationAt("/pets", "post"),
      operationAt("/pets", "get"),
      operationAt("/pets/{petId}", "get"),
    ];
    expect(notices).toEqual(
      called.flatMap((op) => {
        const deprecation = deprecationOf(op);
        if (!deprecation) return [];
        return [
          expect.objectContaining({
            operation: op.operationId,
            deprecatedAt: deprecation.since,
            sunset: deprecation.sunset,
            link: expect.stringContaining(basePath),
          }),
        ];
      }),
    );
  });

  it("pages through the whole list with client.pages: each pet once, in id order, per filter", async () => {
    const client = clientFor(proKey);
    const { spec } = loadBundledSpec();
    const statuses = deref<{ enum: PetStatus[] }>(spec, {
      $ref: "#/components/schemas/PetStatus",
    }).enum;
    const created: Pet[] = [];
    for (let i = 0; i < 17; i++) {
      const status = statuses[i % statuses.length] as PetStatus;
      created.push(
        unwrap(await client.POST("/pets", { body: { name: `page${i}`, categoryId: 1, status } })),
      );
    }
    for (const status of [undefined, ...statuses]) {
      const ids: number[] = [];
      const query = { limit: 4, ...(status ? { status } : {}) };
      for await (const page of client.pages("/pets", { params: { query } })) {
        expect(page.data.length).toBeLessThanOrEqual(query.limit);
        ids.push(...page.data.map((pet) => pet.id));
      }
      expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
      const mine = created.filter((pet) => status === undefined || pet.status === status);
      expect(ids).toEqual(expect.arrayContaining(mine.map((pet) => pet.id)));
    }
  });

  it("returns 404 as the spec's Error, and unwrap throws it as ApiError", async () => {
    const client = clientFor(proKey);
    const result = await client.GET("/pets/{petId}", { params: { path: { petId: 9_000_000 } } });
    const error: ApiErrorBody | undefined = result.error;
    expect(result.response.status).toBe(404);
    expect(error).toEqual({ code: "not_found", message: expect.any(String), status: 404 });
    const thrown = (() => {
      try {
        unwrap(result);
      } catch (caught) {
        return caught;
      }
    })();
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: 404, code: "not_found" });
  });

  it("returns 400 validation_failed for a bad body and a bad parameter", async () => {
    const client = clientFor(proKey);
    const badBody = await client.POST("/pets", { body: { name: "", categoryId: 1 } });
    expect(badBody.error).toEqual({
      code: "validation_failed",
      message: expect.stringContaining("name"),
      status: 400,
    });
    const badLimit = await client.GET("/pets", {
      params: { query: { limit: pagedList().max + 1 } },
    });
    expect(badLimit.error).toMatchObject({ code: "validation_failed", status: 400 });
    expect(badLimit.data).toBeUndefined();
  });

  it("returns 401 invalid_api_key for an unknown key and unauthorized without one", async () => {
    const unknown = await clientFor("ask_this-key-was-never-issued").GET("/pets");
    expect(unknown.error).toEqual({
      code: "invalid_api_key",
      message: expect.any(String),
      status: 401,
    });
    expect(unknown.response.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(JSON.stringify(unknown.error)).not.toContain("ask_this-key-was-never-issued");

    const anonymous = createAnimalStoreClient({
      baseUrl,
      apiKey: "dropped-before-sending",
      fetch: (request) => {
        request.headers.delete("authorization");
        return fetch(request);
      },
    });
    const missing = await anonymous.GET("/pets");
    expect(missing.error).toEqual({
      code: "unauthorized",
      message: expect.any(String),
      status: 401,
    });
  });

  it("exposes the key's rate-limit values", async () => {
    const key = await server.createKey({
      plan: "enterprise",
      name: "limits",
      perMinute: 50,
      perDay: 40,
    });
    const client = clientFor(key);
    expect(client.rateLimit).toBeUndefined();
    await client.GET("/pets");
    expect(client.rateLimit).toMatchObject({ limit: 40, remaining: 39 });
    await client.GET("/pets");
    expect(client.rateLimit?.remaining).toBe(38);
    const resetAt = client.rateLimit?.resetAt.getTime() ?? 0;
    expect(resetAt).toBeGreaterThan(Date.now());
    expect(resetAt % 1000).toBe(0);
  });

  it("waits out a real 429's Retry-After before retrying, and returns it when limits persist", async () => {
    const key = await server.createKey({
      plan: "enterprise",
      name: "429",
      perMinute: 1,
      perDay: 100,
    });
    const exhaust = createAnimalStoreClient({ baseUrl, apiKey: key, retry: false });
    // The key's one request a minute and the refusals after it must fall in one UTC minute.
    await awayFromMinuteEdge(5_000);
    let status = 0;
    for (let i = 0; i < 3 && status !== 429; i++)
      status = (await exhaust.GET("/pets")).response.status;
    expect(status).toBe(429);

    const clock = fakeClock(Date.now());
    const client = createAnimalStoreClient({
      baseUrl,
      apiKey: key,
      retry: { maxRetries: 1, maxDelayMs: 61_000, now: clock.now, sleep: clock.sleep },
    });
    const { error, response } = await client.GET("/pets");
    expect(error).toMatchObject({ code: "rate_limited", status: 429 });
    const lastRetryAfter = Number(response.headers.get("retry-after"));
    expect(lastRetryAfter).toBeGreaterThan(0);
    expect(clock.waits).toHaveLength(1);
    expect(clock.waits[0]).toBeGreaterThanOrEqual(lastRetryAfter * 1000);
    expect(clock.waits[0]).toBeLessThanOrEqual(60_000);
    expect(client.rateLimit?.remaining).toBe(0);
  });
});
