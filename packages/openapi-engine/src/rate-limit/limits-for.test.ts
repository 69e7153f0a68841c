import { rateLimitPolicy } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import type { ApiKeyRecord } from "../auth/security.js";
import { limitsFor } from "./limits.js";

const policy = rateLimitPolicy(loadFixture().spec);
const fixed = policy.planNames.filter((name) => !policy.plans[name]?.custom);
const custom = policy.planNames.filter((name) => policy.plans[name]?.custom);
const limitsOf = (plan: string) => {
  const { perMinute, perDay } = policy.plans[plan] ?? { perMinute: NaN, perDay: NaN };
  return { perMinute, perDay };
};

const key = (fields: Partial<ApiKeyRecord>): ApiKeyRecord => ({
  id: "k1",
  name: "test",
  plan: fixed[0] ?? "",
  perMinute: null,
  perDay: null,
  createdAt: "2026-01-01T00:00:00Z",
  revokedAt: null,
  ...fields,
});

describe("limitsFor", () => {
  const limits = limitsFor(policy);

  it("gives a key of each plan with numbers that plan's limits", () => {
    expect(fixed.length).toBeGreaterThan(0);
    for (const plan of fixed) {
      expect(limits({ kind: "key", key: key({ plan }) })).toMatchObject(limitsOf(plan));
    }
  });

  it("lets a key's own limits replace its plan's, one window at a time", () => {
    const plan = fixed[0] as string;
    expect(limits({ kind: "key", key: key({ plan, perMinute: 5000, perDay: 2_000_000 }) })).toEqual(
      {
        perMinute: 5000,
        perDay: 2_000_000,
      },
    );
    expect(limits({ kind: "key", key: key({ plan, perMinute: 10 }) })).toEqual({
      perMinute: 10,
      perDay: limitsOf(plan).perDay,
    });
  });

  it("counts a key of a custom plan without limits of its own on the plan it defaults to", () => {
    expect(custom.length).toBeGreaterThan(0);
    const raw = loadFixture().spec.info["x-rate-limit-plans"] as Record<
      string,
      { defaultsTo?: string }
    >;
    for (const plan of custom) {
      const fallback = raw[plan]?.defaultsTo as string;
      expect(limits({ kind: "key", key: key({ plan }) })).toMatchObject(limitsOf(fallback));
    }
  });

  it("puts callers without a valid key on the contract's anonymous plan", () => {
    const anonymous = { kind: "anonymous", address: "203.0.113.7", failure: "invalid" } as const;
    expect(limits(anonymous)).toMatchObject(limitsOf(policy.anonymousPlan));
  });

  it("follows an edited plan table (a plan at 30 a minute)", () => {
    const plans = structuredClone(policy.plans);
    const plan = fixed[0] as string;
    plans[plan] = { perMinute: 30, perDay: 500, custom: false };
    const edited = limitsFor({ ...policy, plans });
    expect(edited({ kind: "key", key: key({ plan }) })).toEqual({
      perMinute: 30,
      perDay: 500,
      custom: false,
    });
  });

  it("counts a key whose plan the contract dropped on the anonymous plan, and says so once", () => {
    const warned: string[] = [];
    const withWarning = limitsFor(policy, (k) => warned.push(k.id));
    const dropped = key({ id: "k-old", plan: "platinum-legacy" });
    expect(withWarning({ kind: "key", key: dropped })).toMatchObject(
      limitsOf(policy.anonymousPlan),
    );
    withWarning({ kind: "key", key: dropped });
    expect(warned).toEqual(["k-old"]);
  });
});
