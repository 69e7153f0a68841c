/**
 * What the suites read off the bundled contract instead of restating it: the plans, the ban rule,
 * the deprecated operations with the headers their extensions promise, example requests.
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

/** The contract's deprecated operations. */
export const deprecatedOperations = contract.operations.filter((op) => op.deprecated);

/** The operations that are not deprecated. */
export const currentOperations = contract.operations.filter((op) => !op.deprecated);

/** The headers a deprecated operation's extensions promise (independent of the server's code). */
export function promisedDeprecationHeaders(op: ServedOperation): Record<string, string> {
  const since = Date.parse(`${op.operation["x-deprecated-since"]}T00:00:00Z`) / 1000;
  const [, target] = String(op.operation["x-replacement"]).split(/[ ?]/);
  return {
    deprecation: `@${since}`,
    sunset: new Date(`${op.operation["x-sunset"]}T00:00:00Z`).toUTCString(),
    link: `<${contract.basePath}${target}>; rel="successor-version"`,
  };
}

/** The sunset instant of a deprecated operation, in ms, from its `x-sunset`. */
export function sunsetOf(op: ServedOperation): number {
  return Date.parse(`${op.operation["x-sunset"]}T00:00:00Z`);
}

/** The 410 message a sunset operation answers with. */
export function goneMessageOf(op: ServedOperation): string {
  return `${op.method} ${op.path} was removed on ${op.operation["x-sunset"]}; use ${op.operation["x-replacement"]} instead.`;
}

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
