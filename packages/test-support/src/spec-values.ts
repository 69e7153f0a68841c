/**
 * The values the suites need that the contract holds, read from the bundled spec so that an edit
 * of openapi/openapi.yaml (a plan's numbers, a new plan, list bounds, another operation
 * deprecated, a new base path, a new resource, an added property) changes what the tests expect
 * with no test edit. A test that pins one business rule names it and, on failure, says which line
 * of openapi.yaml to change (`specLine`).
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import {
  basePathOf,
  bundledSpecPath,
  deprecationHeaders,
  type JsonObject,
  type OperationDeprecation,
  operationDeprecation,
  operationPagination,
  type PlanLimits,
  parameterDefault,
  type SpecOperation,
  type SpecPath,
  sourceLines,
} from "@animal-store/openapi";
import { component, operations, policy, resolve, spec } from "./spec.js";

/** The path every operation's path follows on the wire (`servers`' path, e.g. `/v1`). */
export const basePath: string = basePathOf(spec);

/**
 * Another version's base path (`/v1` → `/v2`, the version number after the spec's one): what a
 * client of another version would call, which this contract does not serve.
 */
export const otherBasePath: string = /\d+$/.test(basePath)
  ? basePath.replace(/\d+$/, (n) => String(Number(n) + 1))
  : `${basePath}/v9`;

/** `path` (a path of the spec, `/pets`) as sent on the wire: under the base path. */
export function apiPath(path: string): string {
  return `${basePath}${path}`;
}

/** The plans in spec order, each with its limits (a custom plan: those it defaults to). */
export const plans: Array<{ name: string } & PlanLimits & { custom: boolean }> =
  policy.planNames.map((name) => ({
    name,
    ...(policy.plans[name] as PlanLimits & { custom: boolean }),
  }));

/** The limits of `name`; throws naming the plan when the spec has none by that name. */
export function planLimits(name: string): PlanLimits & { custom: boolean } {
  const found = policy.plans[name];
  if (!found) throw new Error(`the spec has no plan ${name} (info.x-rate-limit-plans)`);
  return found;
}

/** The plan callers without a key are counted on, with its limits. */
export const anonymousPlan = { name: policy.anonymousPlan, ...planLimits(policy.anonymousPlan) };

/** The plan with the highest per-minute limit among those with fixed limits (room for bursts). */
export const roomiestPlan = [...plans]
  .filter((plan) => !plan.custom)
  .sort((a, b) => b.perMinute - a.perMinute)[0] as (typeof plans)[number];

/** The plan with the lowest per-minute limit (the quickest to exhaust). */
export const tightestPlan = [...plans]
  .filter((plan) => !plan.custom)
  .sort((a, b) => a.perMinute - b.perMinute)[0] as (typeof plans)[number];

/** The first plan whose limits are set per key (`custom`), if the spec has one. */
export const customPlan = plans.find((plan) => plan.custom);

/**
 * `YYYY-MM-DD`, the UTC day `days` after today (before it when negative): a test's own date for a
 * scratch edit, computed rather than written, so it is never a literal the restated-values scan
 * could take for a date the spec holds.
 */
export function dayFromToday(days: number): string {
  const today = Date.parse(new Date().toISOString().slice(0, 10));
  return new Date(today + days * 86_400_000).toISOString().slice(0, 10);
}

/** `date` (`YYYY-MM-DD`) moved by `days`, as `YYYY-MM-DD`. */
export function dayAfter(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The operation `operationId`, from the bundled spec. */
export function operation(operationId: string): SpecOperation {
  const found = operations.find((op) => op.operationId === operationId);
  if (!found) throw new Error(`the spec has no operation ${operationId}`);
  return found;
}

/** Each deprecated operation with its dates, successor and the headers it answers with. */
export const deprecated: Array<{
  op: SpecOperation;
  deprecation: OperationDeprecation;
  headers: Record<string, string>;
}> = operations.flatMap((op) => {
  const deprecation = operationDeprecation(spec, op, operations);
  return deprecation ? [{ op, deprecation, headers: deprecationHeaders(deprecation) }] : [];
});

/** The deprecation of `op`, or undefined when the spec does not deprecate it. */
export function deprecationOf(op: SpecOperation): OperationDeprecation | undefined {
  return deprecated.find((entry) => entry.op === op)?.deprecation;
}

/**
 * The `Link` value every answer of `op` carries whatever the page (a deprecated operation's
 * `rel="successor-version"`), or undefined: on a paged list the `next` link comes on top of it.
 */
export function standingLink(op: SpecOperation): string | undefined {
  return deprecated.find((entry) => entry.op === op)?.headers.Link;
}

/** Operations the spec does not deprecate, optionally only those with `method`. */
export function current(method?: string): SpecOperation[] {
  return operations.filter(
    (op) => !op.deprecated && (method === undefined || op.method === method.toUpperCase()),
  );
}

/** Each operation whose path has no parameter and that takes no body, by method. */
export function parameterless(method = "GET"): SpecOperation[] {
  return operations.filter(
    (op) =>
      op.method === method.toUpperCase() && !op.path.includes("{") && op.requestBody === undefined,
  );
}

/** The paged list operation: its page-size parameter with bounds and default, its cursor. */
export interface PagedList {
  op: SpecOperation;
  /** The query parameter of the page size (`limit`). */
  pageSize: string;
  /** The query parameter the next link's cursor goes in (`cursor`). */
  cursor: string;
  min: number;
  max: number;
  /** The page size when none is asked for. */
  defaultSize: number;
  codes: { invalid: string; otherFilter: string };
}

/** Every operation that answers in pages (`x-pagination`), with its page-size bounds. */
export const pagedLists: PagedList[] = operations.flatMap((op) => {
  const paging = operationPagination(spec, op);
  if (!paging) return [];
  const parameter = op.parameters.find((p) => p.name === paging.pageSizeParameter);
  const schema = resolve(parameter?.schema);
  const where = `${op.operationId} ${paging.pageSizeParameter}`;
  const number = (value: unknown, what: string) => {
    if (typeof value !== "number") throw new Error(`${where}: the spec gives no ${what}`);
    return value;
  };
  return [
    {
      op,
      pageSize: paging.pageSizeParameter,
      cursor: paging.cursorParameter,
      min: number(schema.minimum, "minimum"),
      max: number(schema.maximum, "maximum"),
      defaultSize: number(parameterDefault(spec, op, paging.pageSizeParameter), "default"),
      codes: paging.codes,
    },
  ];
});

/** The first paged list operation; throws when the spec pages none. */
export function pagedList(): PagedList {
  const [found] = pagedLists;
  if (!found) throw new Error("the spec has no operation with x-pagination");
  return found;
}

/** The documented statuses of `op` that are whole codes (`"200"`, not `"4XX"`), as numbers. */
export function statusesOf(op: SpecOperation): number[] {
  return op.statuses.filter((s) => /^\d{3}$/.test(s)).map(Number);
}

/** The property names of a schema of the components, and which of them are required. */
export function propertiesOf(schemaName: string): { names: string[]; required: string[] } {
  const schema: JsonObject = component("schemas", schemaName);
  const properties = schema.properties;
  const names = properties && typeof properties === "object" ? Object.keys(properties) : [];
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  return { names, required };
}

const sourceFile = join(dirname(bundledSpecPath), "..", "openapi.yaml");
let lines: ReturnType<typeof sourceLines> | undefined;

/**
 * `openapi/openapi.yaml:LINE` of the value at `path` (of the nearest part of it the hand-written
 * file has): what a test pinning a business rule names as the line to change.
 */
export function specLine(path: SpecPath): string {
  lines ??= sourceLines(readFileSync(sourceFile, "utf8"));
  const shown = relative(join(dirname(sourceFile), ".."), sourceFile);
  return `${shown}:${lines.lineOf(path)} (${path.join(".")})`;
}

/** The message of a test pinning one business rule: the rule, and the spec line that states it. */
export function rule(statement: string, path: SpecPath): string {
  return `business rule: ${statement}. To change it, edit ${specLine(path)}`;
}
