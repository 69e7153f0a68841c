/**
 * The plan table of the contract (info["x-rate-limit-plans"] and the "Rate limits" prose), held
 * here once; plans.test.ts proves it equals the bundled spec.
 */
import type { ApiKeyRecord, Caller, Plan } from "../auth.js";

/** Requests allowed per UTC minute and per UTC day. */
export interface PlanLimits {
  perMinute: number;
  perDay: number;
}

/** Published limits of the plans with fixed numbers; Enterprise limits are set per key. */
export const PLAN_LIMITS: Readonly<Record<Exclude<Plan, "enterprise">, Readonly<PlanLimits>>> = {
  free: { perMinute: 60, perDay: 1000 },
  pro: { perMinute: 300, perDay: 10000 },
  business: { perMinute: 1000, perDay: 100000 },
};

/** The plan whose limits an Enterprise key without limits of its own falls back to. */
export const ENTERPRISE_DEFAULT_PLAN = "business" as const;

/** The plan that callers without a valid key are counted on (per client address). */
export const ANONYMOUS_PLAN = "free" as const;

/** The limits that apply to a key: its own values where set, otherwise its plan's. */
export function limitsForKey(key: Pick<ApiKeyRecord, "plan" | "perMinute" | "perDay">): PlanLimits {
  const base = PLAN_LIMITS[key.plan === "enterprise" ? ENTERPRISE_DEFAULT_PLAN : key.plan];
  return { perMinute: key.perMinute ?? base.perMinute, perDay: key.perDay ?? base.perDay };
}

/** The limits that apply to a caller: its key's, or the anonymous plan's for its address. */
export function limitsForCaller(caller: Caller): PlanLimits {
  return caller.kind === "key" ? limitsForKey(caller.key) : PLAN_LIMITS[ANONYMOUS_PLAN];
}
