import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { ApiKeyRecord } from "../auth.js";
import {
  ANONYMOUS_PLAN,
  ENTERPRISE_DEFAULT_PLAN,
  limitsForCaller,
  limitsForKey,
  PLAN_LIMITS,
} from "./plans.js";

const spec = JSON.parse(
  readFileSync(
    createRequire(import.meta.url).resolve("@animal-store/openapi/openapi.json"),
    "utf8",
  ),
);
const description: string = spec.info.description;

/** Rows of the plan table in the "Rate limits" prose: plan name → [per minute, per day] cells. */
function proseTable(): Map<string, [string, string]> {
  const section = description.split("## Rate limits")[1]?.split("\n## ")[0] ?? "";
  const rows = new Map<string, [string, string]>();
  for (const match of section.matchAll(/^\| (\w+) \| ([^|]+) \| ([^|]+) \|$/gm)) {
    const [, plan, minute, day] = match;
    if (plan && minute && day && plan !== "Plan") rows.set(plan, [minute.trim(), day.trim()]);
  }
  return rows;
}

const key = (fields: Partial<ApiKeyRecord>): ApiKeyRecord => ({
  id: "k1",
  name: "test",
  plan: "free",
  perMinute: null,
  perDay: null,
  createdAt: "2026-01-01T00:00:00Z",
  revokedAt: null,
  ...fields,
});

describe("the plan table", () => {
  it("equals info.x-rate-limit-plans, with Enterprise custom", () => {
    const plans = spec.info["x-rate-limit-plans"];
    expect(Object.keys(plans).sort()).toEqual([...Object.keys(PLAN_LIMITS), "enterprise"].sort());
    for (const [plan, limits] of Object.entries(PLAN_LIMITS)) expect(plans[plan]).toEqual(limits);
    expect(plans.enterprise).toEqual({ perMinute: "custom", perDay: "custom" });
  });

  it("equals the table in the description's prose", () => {
    const rows = proseTable();
    expect(rows.size).toBe(4);
    for (const [plan, limits] of Object.entries(PLAN_LIMITS)) {
      const cells = rows.get(plan[0]?.toUpperCase() + plan.slice(1));
      expect(cells?.map((cell) => Number(cell.replaceAll(",", "")))).toEqual([
        limits.perMinute,
        limits.perDay,
      ]);
    }
    expect(rows.get("Enterprise")?.every((cell) => cell.startsWith("custom"))).toBe(true);
  });

  it("states the Enterprise fallback and the anonymous plan as the prose does", () => {
    const name = (plan: string) => plan[0]?.toUpperCase() + plan.slice(1);
    const prose = description.replace(/\s+/g, " ");
    expect(prose).toContain(
      `Enterprise key without limits of its own is counted on the ${name(ENTERPRISE_DEFAULT_PLAN)} limits`,
    );
    expect(prose).toContain(`address on the ${name(ANONYMOUS_PLAN)} plan`);
  });
});

describe("limitsForKey", () => {
  it("gives a key its plan's limits", () => {
    expect(limitsForKey(key({ plan: "pro" }))).toEqual({ perMinute: 300, perDay: 10000 });
  });

  it("lets a key's own limits replace its plan's, one window at a time", () => {
    expect(limitsForKey(key({ plan: "enterprise", perMinute: 5000, perDay: 2_000_000 }))).toEqual({
      perMinute: 5000,
      perDay: 2_000_000,
    });
    expect(limitsForKey(key({ plan: "free", perMinute: 10 }))).toEqual({
      perMinute: 10,
      perDay: 1000,
    });
  });

  it("counts an Enterprise key without limits of its own on the Business limits", () => {
    expect(limitsForKey(key({ plan: "enterprise" }))).toEqual(PLAN_LIMITS.business);
  });
});

describe("limitsForCaller", () => {
  it("puts callers without a valid key on the Free plan", () => {
    const anonymous = { kind: "anonymous", address: "203.0.113.7", failure: "invalid" } as const;
    expect(limitsForCaller(anonymous)).toEqual(PLAN_LIMITS.free);
    expect(limitsForCaller({ kind: "key", key: key({ plan: "business" }) })).toEqual(
      PLAN_LIMITS.business,
    );
  });
});
