/**
 * Which limits apply to a caller, from the contract's plans (`info.x-rate-limit-plans`): a key's
 * own limits where set, else its plan's; a caller without a valid key is counted on the plan
 * `info.x-rate-limit-anonymous-plan` names.
 */
import type { PlanLimits, RateLimitPolicy } from "@animal-store/openapi";
import type { ApiKeyRecord, Caller } from "../auth/credentials.js";

export type { PlanLimits } from "@animal-store/openapi";

/** Told once per key whose plan the contract no longer has (it is counted on the anonymous plan). */
export type UnknownPlanWarning = (key: ApiKeyRecord) => void;

/** The function that gives each caller its limits under `policy`. */
export function limitsFor(
  policy: RateLimitPolicy,
  onUnknownPlan: UnknownPlanWarning = () => {},
): (caller: Caller) => PlanLimits {
  const anonymous = policy.plans[policy.anonymousPlan] as PlanLimits;
  const warned = new Set<string>();
  const forKey = (key: ApiKeyRecord): PlanLimits => {
    let base = Object.hasOwn(policy.plans, key.plan) ? policy.plans[key.plan] : undefined;
    if (base === undefined) {
      // A key issued under a plan the contract has since dropped: the strictest known limits,
      // rather than none at all or a refused start.
      if (!warned.has(key.id)) {
        warned.add(key.id);
        onUnknownPlan(key);
      }
      base = { ...anonymous, custom: false };
    }
    if (key.perMinute === null && key.perDay === null) return base;
    return { perMinute: key.perMinute ?? base.perMinute, perDay: key.perDay ?? base.perDay };
  };
  return (caller) => (caller.kind === "key" ? forKey(caller.key) : anonymous);
}
