// A valid key is judged on the key (issue 52): 3,000 requests with random well-formed keys from
// one address, then ten keys of that address's callers that were never used (of every plan with
// published limits other than the anonymous one) each get 200 with their own plan's
// X-RateLimit-* headers; the flood costs at most the anonymous plan's per-minute number of store
// lookups. Planted faults: a lookup budget per address that refuses every uncached key past it
// (the third round's), and no budget at all, each fail here.

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScratchApp, startScratchApp } from "../src/testing/index.js";
import { loadFixture } from "./support/fixture-contract.js";
import { type KeyOnlyStore, listApplication, listOperations } from "./support/list-application.js";

const spec = loadFixture();
const application = listApplication(spec);
const list = listOperations(spec)[0];
if (!list) throw new Error("the contract has no parameterless GET answering a list");

let app: ScratchApp<KeyOnlyStore>;
beforeAll(async () => {
  app = await startScratchApp(application);
});
afterAll(() => app?.close());

describe("keys are judged on the key", () => {
  it("3,000 random keys from one address, then ten never-used valid keys from it: 200 on their own plans", async () => {
    const { contract } = await import("../src/contract/contract.js").then((m) => ({
      contract: m.compileContract(spec),
    }));
    const policy = contract.rateLimit;
    const plans = policy.planNames.filter(
      (name) => name !== policy.anonymousPlan && !policy.plans[name]?.custom,
    );
    expect(plans.length).toBeGreaterThan(0);
    const quiet = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const plan = plans[i % plans.length] as string;
        return { plan, key: await app.createKey({ plan, name: `quiet-${i}` }) };
      }),
    );
    const url = `${app.apiUrl}${list.path}`;
    // Warm: the directory is loaded by the first keyed request.
    await fetch(url, { headers: { authorization: `Bearer ${app.key}` } });
    const before = app.store.lookups;
    const statuses = new Map<number, number>();
    for (let i = 0; i < 3000; i++) {
      const res = await fetch(url, {
        headers: { authorization: `Bearer ask_${randomBytes(24).toString("base64url")}` },
      });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    // The address's budget runs out: unknown keys are refused 401, then 429.
    expect(statuses.get(429) ?? 0).toBeGreaterThan(0);
    const anonymousPerMinute = policy.plans[policy.anonymousPlan]?.perMinute as number;
    const floodLookups = app.store.lookups - before;
    expect(floodLookups).toBeLessThanOrEqual(anonymousPerMinute);
    for (const { plan, key } of quiet) {
      const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      const perMinute = policy.plans[plan]?.perMinute as number;
      expect([res.status, res.headers.get("x-ratelimit-limit")]).toEqual([200, String(perMinute)]);
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(perMinute - 1));
    }
    // The ten were found in the directory: no store lookup for any of them.
    expect(app.store.lookups - before).toBe(floodLookups);
  }, 120_000);
});
