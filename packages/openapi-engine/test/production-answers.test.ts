// In production responses are not validated and handlers' answers go through serializers compiled
// from the contract instead of JSON.stringify after the checks. Both paths must put the same bytes
// and headers on the wire (over the widgets fixture).

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "../src/auth/security.js";
import { type ScratchApp, scratchDirectory, startScratchApp } from "../src/testing/index.js";
import { contract, roomyPlan } from "./support/serve.js";
import { openWidgetStore, type WidgetStore, widgetApplication } from "./support/widget-app.js";
import { basePath, pageSize } from "./support/widgets.js";

const temp = scratchDirectory("engine-production-");
const policy = contract.rateLimit;
type Store = WidgetStore;
let store: Store;
let key = "";
const apps: ScratchApp<Store>[] = [];

/** An app on the suite's store with `env`; its API base. */
async function start(env: Record<string, string>): Promise<string> {
  const app = await startScratchApp(widgetApplication(), { store, env });
  apps.push(app);
  return app.url;
}

let validated = "";
let production = "";

beforeAll(async () => {
  store = await openWidgetStore(join(temp.dir, "widgets.db"));
  key = (await issueApiKey(store, policy, { plan: roomyPlan, name: "test" })).key;
  for (let i = 0; i < 105; i++) {
    await store.createWidget({
      label: `Widget ${i} "é"`,
      sizeId: 1 + (i % 3),
      ...(i % 2 ? { shade: "slate" } : {}),
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
    ["GET", "/widgets"],
    ["GET", `/widgets?${pageSize.name}=${pageSize.max}`],
    ["GET", `/widgets?${pageSize.name}=5&shade=slate`],
    ["HEAD", `/widgets?${pageSize.name}=3`],
    ["GET", "/widgets/1"],
    ["GET", "/widgets/100000"],
    ["GET", `/widgets?${pageSize.name}=0`],
  ])("%s %s is byte for byte the validated answer", async (method, path) => {
    const expected = await answer(validated, path, { method });
    expect(expected.status).toBeLessThan(500);
    expect(await answer(production, path, { method })).toEqual(expected);
  });

  it("POST /widgets answers the same shape and headers, with its own id", async () => {
    const body = JSON.stringify({ label: "Cog", sizeId: 1, shade: "teal" });
    const a = await answer(validated, "/widgets", { method: "POST", body });
    const b = await answer(production, "/widgets", { method: "POST", body });
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
