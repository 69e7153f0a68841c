/**
 * The contract's behaviour that OpenAPI has no keyword for, read from its extensions: the API's
 * base path (from `servers`), rate-limit plans and the ban rule (`info.x-rate-limit-*`), the
 * request body limit, and each deprecated operation's dates and successor. Each reader checks
 * what it reads and throws a message naming the extension, so a bad edit fails at start.
 */
import { isJsonObject, type OpenApiDocument } from "./document.js";
import type { SpecOperation } from "./spec-operations.js";

/**
 * The distinct base paths of the servers (`/v1`), in the servers' order, variables at their
 * defaults; `[""]` when there is no server.
 */
export function serverBasePaths(spec: Pick<OpenApiDocument, "servers">): string[] {
  const bases = new Set(
    (spec.servers ?? []).map((server) => {
      const url = server.url.replace(
        /\{(\w+)\}/g,
        (_, name: string) => server.variables?.[name]?.default ?? name,
      );
      return new URL(url, "http://localhost").pathname.replace(/\/+$/, "");
    }),
  );
  return bases.size === 0 ? [""] : [...bases];
}

/** The path every server URL ends with (`/v1`), or "" for none; throws when servers disagree. */
export function basePathOf(spec: Pick<OpenApiDocument, "servers">): string {
  const bases = new Set(serverBasePaths(spec));
  if (bases.size > 1) {
    throw new Error(`the spec's servers disagree on the base path: ${[...bases].join(", ")}`);
  }
  return [...bases][0] ?? "";
}

/** Requests allowed per UTC minute and per UTC day. */
export interface PlanLimits {
  perMinute: number;
  perDay: number;
}

/** The rate-limit policy: plans, the plan of callers without a key, and the ban rule. */
export interface RateLimitPolicy {
  /** Plan names in the spec's order. */
  planNames: string[];
  /** Limits of each plan; a plan with custom limits (set per key) has those of `defaultsTo`. */
  plans: Record<string, PlanLimits & { custom: boolean }>;
  /** The plan callers without a valid key are counted on, per client address. */
  anonymousPlan: string;
  ban: { threshold: number; seconds: number };
}

function wholeNumber(value: unknown, where: string, min: number): number {
  if (!Number.isSafeInteger(value) || (value as number) < min) {
    throw new Error(`${where} must be a whole number of at least ${min} (got ${String(value)})`);
  }
  return value as number;
}

const RATE_LIMIT_EXTENSIONS = [
  "x-rate-limit-plans",
  "x-rate-limit-anonymous-plan",
  "x-rate-limit-ban",
] as const;

/**
 * The rate-limit policy when the contract declares one, else undefined: a contract without any of
 * `info.x-rate-limit-*` is served without rate limiting. Declaring some of them but not all is a
 * mistake, refused naming what is missing (as `rateLimitPolicy` does).
 */
export function declaredRateLimitPolicy(spec: OpenApiDocument): RateLimitPolicy | undefined {
  if (RATE_LIMIT_EXTENSIONS.every((name) => spec.info[name] === undefined)) return undefined;
  return rateLimitPolicy(spec);
}

/** Reads `info.x-rate-limit-plans`, `info.x-rate-limit-anonymous-plan` and `info.x-rate-limit-ban`. */
export function rateLimitPolicy(spec: OpenApiDocument): RateLimitPolicy {
  const raw = spec.info["x-rate-limit-plans"];
  if (!isJsonObject(raw) || Object.keys(raw).length === 0) {
    throw new Error("info.x-rate-limit-plans must map plan names to their limits");
  }
  const planNames = Object.keys(raw);
  const plans: RateLimitPolicy["plans"] = {};
  const custom: Array<[string, unknown]> = [];
  for (const name of planNames) {
    const plan = raw[name];
    const where = `info.x-rate-limit-plans.${name}`;
    if (!isJsonObject(plan)) throw new Error(`${where} must be an object`);
    if (plan.perMinute === "custom" || plan.perDay === "custom") {
      if (plan.perMinute !== plan.perDay) {
        throw new Error(`${where}: perMinute and perDay are both "custom" or both numbers`);
      }
      custom.push([name, plan.defaultsTo]);
      continue;
    }
    plans[name] = {
      perMinute: wholeNumber(plan.perMinute, `${where}.perMinute`, 1),
      perDay: wholeNumber(plan.perDay, `${where}.perDay`, 1),
      custom: false,
    };
  }
  for (const [name, fallback] of custom) {
    const limits = typeof fallback === "string" ? plans[fallback] : undefined;
    if (!limits) {
      throw new Error(
        `info.x-rate-limit-plans.${name}.defaultsTo must name a plan with numeric limits`,
      );
    }
    plans[name] = { perMinute: limits.perMinute, perDay: limits.perDay, custom: true };
  }
  const anonymousPlan = spec.info["x-rate-limit-anonymous-plan"];
  if (typeof anonymousPlan !== "string" || plans[anonymousPlan]?.custom !== false) {
    throw new Error("info.x-rate-limit-anonymous-plan must name a plan with numeric limits");
  }
  const ban = spec.info["x-rate-limit-ban"];
  if (!isJsonObject(ban)) throw new Error("info.x-rate-limit-ban must be an object");
  return {
    planNames,
    plans,
    anonymousPlan,
    ban: {
      threshold: wholeNumber(
        ban.rejectedRequestsBeforeBan,
        "info.x-rate-limit-ban.rejectedRequestsBeforeBan",
        0,
      ),
      seconds: wholeNumber(ban.banSeconds, "info.x-rate-limit-ban.banSeconds", 0),
    },
  };
}

/**
 * The request body limit of a contract that does not declare `info.x-request-body-limit-bytes`:
 * 1 MiB. OpenAPI has no keyword for it; this is the engine's choice, documented in its README.
 */
export const DEFAULT_REQUEST_BODY_LIMIT_BYTES = 1_048_576;

/**
 * The request target limit of a contract that does not declare
 * `info.x-request-target-limit-bytes`: 8000 bytes, the least RFC 9110 section 4.1 recommends
 * every recipient support.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-4.1
 */
export const DEFAULT_REQUEST_TARGET_LIMIT_BYTES = 8000;

/** The maximum request body size: `info.x-request-body-limit-bytes`, else the default. */
export function requestBodyLimitBytes(spec: OpenApiDocument): number {
  const declared = spec.info["x-request-body-limit-bytes"];
  if (declared === undefined) return DEFAULT_REQUEST_BODY_LIMIT_BYTES;
  return wholeNumber(declared, "info.x-request-body-limit-bytes", 1);
}

/**
 * The maximum length of a request target (path and query): `info.x-request-target-limit-bytes`,
 * else the default.
 */
export function requestTargetLimitBytes(spec: OpenApiDocument): number {
  const declared = spec.info["x-request-target-limit-bytes"];
  if (declared === undefined) return DEFAULT_REQUEST_TARGET_LIMIT_BYTES;
  return wholeNumber(declared, "info.x-request-target-limit-bytes", 1);
}

/** What a deprecated operation's responses say about it (RFC 9745, RFC 8594, RFC 8288). */
export interface OperationDeprecation {
  /** `x-deprecated-since`: deprecated since this instant. */
  since: Date;
  /** `x-sunset`: removed at this instant (answers 410 from then on); undefined when none is set. */
  sunset: Date | undefined;
  /** `x-replacement` (`GET /pets?status=`), and the path its Link points at (`/v1/pets`). */
  successor: { text: string; link: string } | undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A date (midnight UTC) or a date-time with its zone; throws naming `where` otherwise. */
function instant(value: unknown, where: string): Date {
  const text = typeof value === "string" ? value : "";
  const date = DATE.test(text)
    ? new Date(`${text}T00:00:00Z`)
    : DATE_TIME.test(text)
      ? new Date(text)
      : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) {
    throw new Error(
      `${where} must be a date (YYYY-MM-DD, midnight UTC) or a date-time with a zone (got ${String(value)})`,
    );
  }
  return date;
}

/**
 * The deprecation of `operation`, or undefined when it is not deprecated. The successor named in
 * `x-replacement` must be an operation of the contract.
 */
export function operationDeprecation(
  spec: OpenApiDocument,
  operation: SpecOperation,
  operations: SpecOperation[],
): OperationDeprecation | undefined {
  if (!operation.deprecated) return undefined;
  const own = operation.operation;
  const where = `${operation.operationId}`;
  const since = instant(own["x-deprecated-since"], `${where}: x-deprecated-since`);
  const sunset =
    own["x-sunset"] === undefined ? undefined : instant(own["x-sunset"], `${where}: x-sunset`);
  let successor: OperationDeprecation["successor"];
  const replacement = own["x-replacement"];
  if (replacement !== undefined) {
    const match = /^([A-Z]+) (\/[^?\s]*)(\?\S*)?$/.exec(String(replacement));
    const target = match
      ? operations.find((op) => op.method === match[1] && op.path === match[2])
      : undefined;
    if (!match || !target) {
      throw new Error(
        `${where}: x-replacement must name an operation of the spec as "METHOD /path[?query]" (got ${String(replacement)})`,
      );
    }
    successor = { text: String(replacement), link: `${serverBasePaths(spec)[0]}${target.path}` };
  }
  return { since, sunset, successor };
}

/** The response headers a deprecated operation sends: Deprecation, Sunset and Link where known. */
export function deprecationHeaders(deprecation: OperationDeprecation): Record<string, string> {
  const headers: Record<string, string> = {
    Deprecation: `@${Math.floor(deprecation.since.getTime() / 1000)}`,
  };
  if (deprecation.sunset) headers.Sunset = deprecation.sunset.toUTCString();
  if (deprecation.successor)
    headers.Link = `<${deprecation.successor.link}>; rel="successor-version"`;
  return headers;
}
