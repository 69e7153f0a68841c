/**
 * `spec-facts/rate-limit-headers`: where the contract declares rate-limit plans
 * (`info.x-rate-limit-plans`), the server counts every request and says so on every answer:
 * every response declares `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`,
 * and the IETF `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10) the
 * engine writes beside them from the same count, and every 429 declares `Retry-After`. A contract
 * without plans is not checked.
 */
import { follow, isJsonObject, operationPath, specOperations } from "@animal-store/openapi";
import { rootRule } from "./report.js";

const RATE_LIMIT_HEADERS = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "RateLimit-Policy",
  "RateLimit",
];

/** The rule's visitor factory. */
export const rateLimitHeadersRule = rootRule((facts) => {
  if (facts.spec.info["x-rate-limit-plans"] === undefined) return;
  const plansAt = facts.at(["info", "x-rate-limit-plans"]);
  const seen = new Set<string>();
  for (const operation of specOperations(facts.spec)) {
    const responses = operation.operation.responses;
    for (const [status, raw] of Object.entries(isJsonObject(responses) ? responses : {})) {
      const response = follow(facts.spec, raw, [...operationPath(operation), "responses", status]);
      if (!response || seen.has(response.path.join("/"))) continue;
      seen.add(response.path.join("/"));
      const declared = new Set(
        Object.keys(isJsonObject(response.node.headers) ? response.node.headers : {}).map((name) =>
          name.toLowerCase(),
        ),
      );
      const wanted = status === "429" ? [...RATE_LIMIT_HEADERS, "Retry-After"] : RATE_LIMIT_HEADERS;
      const missing = wanted.filter((name) => !declared.has(name.toLowerCase()));
      if (missing.length === 0) continue;
      facts.report(
        response.path,
        `The ${status} response (${facts.at(response.path)}) must declare ${missing.join(", ")}: the contract declares rate-limit plans (${plansAt}), so every answer carries the X-RateLimit-* headers and RateLimit-Policy and RateLimit${status === "429" ? " and a 429 its Retry-After" : ""}.`,
      );
    }
  }
});
