/**
 * What the engine's HTTP tests read off the widgets fixture instead of restating it: the base
 * path, a base path that is not it, the list's page-size bounds, an example request per operation,
 * the body limit, a valid new widget.
 */
import { deref, exampleRequest } from "@animal-store/openapi";
import type { ServedOperation } from "../../src/contract/contract.js";
import { widgetContract as contract } from "./widget-app.js";

/** The fixture's base path (`/api`). */
export const basePath = contract.basePath;

/** A base path that is not the fixture's, nor under it. */
export const otherBasePath = `${basePath}-other`;

const countParameter = deref<{ schema: { minimum: number; maximum: number } }>(
  contract.spec,
  (contract.spec.components as { parameters: Record<string, unknown> }).parameters.Count,
);

/** The list's page-size parameter and its bounds, as the fixture declares them. */
export const pageSize = {
  name: "count",
  min: countParameter.schema.minimum,
  max: countParameter.schema.maximum,
};

/** A new widget the fixture accepts, as JSON text. */
export const newWidget = (label = "Sprocket") => JSON.stringify({ label, sizeId: 1 });

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

const policy = contract.rateLimit;

/** Plans with published numbers, in the fixture's order. */
export const fixedPlans = policy.planNames.filter((name) => !policy.plans[name]?.custom);

/** A plan whose keys carry limits of their own. */
export const customPlan = policy.planNames.find((name) => policy.plans[name]?.custom) as string;

/** The published limits of a plan. */
export function limitsOf(plan: string): { perMinute: number; perDay: number } {
  const found = policy.plans[plan];
  if (!found) throw new Error(`the fixture has no plan ${plan}`);
  return { perMinute: found.perMinute, perDay: found.perDay };
}

/** The limits callers without a valid key are counted on. */
export const anonymousLimits = limitsOf(policy.anonymousPlan);

/** The plan with published numbers and the lowest per-minute limit. */
export const tightestPlan = [...fixedPlans].sort(
  (a, b) => limitsOf(a).perMinute - limitsOf(b).perMinute,
)[0] as string;

/** The fixture's deprecated operations, and the others. */
export const deprecatedOperations = contract.operations.filter((op) => op.deprecated);
export const currentOperations = contract.operations.filter((op) => !op.deprecated);

/** The headers a deprecated operation's extensions promise (independent of the engine's code). */
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
