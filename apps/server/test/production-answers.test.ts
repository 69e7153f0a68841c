// In production responses are not validated and handlers' answers go through serializers compiled
// from the contract instead of JSON.stringify after the checks. Both paths must put the same bytes
// and headers on the wire.

import { join } from "node:path";
import { issueApiKey } from "@animal-store/openapi-engine";
import { type ScratchApp, startScratchApp } from "@animal-store/openapi-engine/testing";
import { basePath, pagedList } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { animalStore } from "../src/animal-store.js";
import type { Store } from "../src/store/index.js";
import { openSqliteStore } from "../src/store/sqlite.js";
import { policy, roomyPlan } from "./support/contract.js";
import { tempDir } from "./support/test-app.js";

const temp = tempDir();
let store: Store;
let key = "";
const apps: ScratchApp<Store>[] = [];

/** An app on the suite's store with `env`; its API base. */
async function start(env: Record<string, string>): Promise<string> {
  const app = await startScratchApp(animalStore, { store, env });
  apps.push(app);
  return app.url;
}

let validated = "";
let production = "";

beforeAll(async () => {
  store = await openSqliteStore(join(temp.dir, "pets.db"));
  key = (await issueApiKey(store, policy, { plan: roomyPlan, name: "test" })).key;
  for (let i = 0; i < 105; i++) {
    await store.createPet({
      name: `Pet ${i} "é"`,
      categoryId: 1 + (i % 3),
      ...(i % 2 ? { status: "sold" } : {}),
    });
  }
  validated = await start({ API_KEY_CACHE_TTL_MS: "0" });
  expect(apps[0]?.config.validateResponses).toBe(true);
  production = await start({ NODE_ENV: "production", API_KEY_CACHE_TTL_MS: "0" });
  expect(apps[1]?.config.validateResponses).toBe(false);
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await store.close();
  temp.remove();
});

const SAME_HEADERS = ["content-type", "content-length", "cache-control", "content-security-policy"];

async function answer(base: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${basePath}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      ...init.headers,
    },
  });
  return {
    status: res.status,
    headers: Object.fromEntries(SAME_HEADERS.map((name) => [name, res.headers.get(name)])),
    body: await res.text(),
  };
}

describe("answers without response validation (production)", () => {
  it.each([
    ["GET", "/pets"],
    ["GET", `/pets?limit=${pagedList().max}`],
    ["GET", "/pets?limit=5&status=sold"],
    ["HEAD", "/pets?limit=3"],
    ["GET", "/pets/1"],
    ["GET", "/pets/100000"],
    ["GET", "/pets?limit=0"],
  ])("%s %s is byte for byte the validated answer", async (method, path) => {
    const expected = await answer(validated, path, { method });
    expect(expected.status).toBeLessThan(500);
    expect(await answer(production, path, { method })).toEqual(expected);
  });

  it("POST /pets answers the same shape and headers, with its own id", async () => {
    const body = JSON.stringify({ name: "Rex", categoryId: 1, status: "available" });
    const a = await answer(validated, "/pets", { method: "POST", body });
    const b = await answer(production, "/pets", { method: "POST", body });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect({ ...JSON.parse(b.body), id: 0 }).toEqual({ ...JSON.parse(a.body), id: 0 });
    expect(JSON.parse(b.body).id).toBe(JSON.parse(a.body).id + 1);
    expect(b.headers).toEqual({
      ...a.headers,
      "content-length": String(Buffer.byteLength(b.body)),
    });
  });
});
