/**
 * What the suites read off the bundled contract instead of restating it: the plans, the ban rule,
 * the realm, example requests.
 */
import {
  exampleRequest,
  loadBundledSpec,
  type PlanLimits,
  rateLimitPolicy,
} from "@animal-store/openapi";
import { compileContract, type ServedOperation } from "@animal-store/openapi-engine";

/** The bundled contract, compiled as the server compiles it. */
export const contract = compileContract(loadBundledSpec());

/** The contract's rate-limit policy (plans, anonymous plan, ban rule). */
export const policy = rateLimitPolicy(contract.spec);

/** Plans with published numbers, in the spec's order. */
export const fixedPlans = policy.planNames.filter((name) => !policy.plans[name]?.custom);

/** A plan whose keys carry limits of their own. */
export const customPlan = policy.planNames.find((name) => policy.plans[name]?.custom) as string;

/** The published limits of a plan. */
export function limitsOf(plan: string): PlanLimits {
  const found = policy.plans[plan];
  if (!found) throw new Error(`the contract has no plan ${plan}`);
  return { perMinute: found.perMinute, perDay: found.perDay };
}

/** The limits callers without a valid key are counted on. */
export const anonymousLimits = limitsOf(policy.anonymousPlan);

/** The roomiest plan with published numbers: what suite keys are created on. */
export const roomyPlan = [...fixedPlans].sort(
  (a, b) => limitsOf(b).perMinute - limitsOf(a).perMinute,
)[0] as string;

/** The realm of the bearer challenge (`x-realm` of the contract's security scheme). */
export const realm = contract.realm;

/** A request of `op` built from its examples, path relative to the base path. */
export function exampleCall(op: ServedOperation): { path: string; init: RequestInit } {
  const request = exampleRequest(contract.spec, contract.basePath, op);
  return {
    path: request.path.slice(contract.basePath.length),
    init: {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
    },
  };
}
