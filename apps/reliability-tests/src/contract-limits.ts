/**
 * The rate-limit numbers of the contract (plans, ban rule), read from the bundled spec's `info`
 * extensions so the suites never restate them, and the plans the suites create keys on.
 */
import { loadBundledSpec, type PlanLimits, rateLimitPolicy } from "@animal-store/openapi";

/** Requests per minute and per day of a plan with published limits. */
export type PlanNumbers = PlanLimits;

/** A plan with its published limits. */
export interface NamedPlan extends PlanLimits {
  name: string;
}

/** The plans and ban rule as the contract states them. */
export function contractLimits() {
  const policy = rateLimitPolicy(loadBundledSpec().spec);
  const published = policy.planNames
    .filter((name) => !policy.plans[name]?.custom)
    .map((name): NamedPlan => {
      const { perMinute, perDay } = policy.plans[name] as PlanLimits;
      return { name, perMinute, perDay };
    })
    .sort((a, b) => a.perMinute - b.perMinute);
  const custom = policy.planNames.find((name) => policy.plans[name]?.custom);
  if (published.length === 0 || custom === undefined) {
    throw new Error("the contract needs a plan with published limits and one with custom limits");
  }
  return {
    /** The plan with the fewest requests a minute: the quickest to exhaust. */
    smallest: published[0] as NamedPlan,
    /** The plan with the most requests a minute. */
    largest: published.at(-1) as NamedPlan,
    /** A plan whose keys carry their own limits. */
    customPlan: custom,
    ban: {
      rejectedRequestsBeforeBan: policy.ban.threshold,
      banSeconds: policy.ban.seconds,
    },
  };
}
