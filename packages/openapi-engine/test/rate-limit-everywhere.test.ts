/**
 * Every response of the service carries X-RateLimit-* and the IETF RateLimit-Policy and RateLimit,
 * not only the API's: an unknown path or
 * version (counted, as the spec says), the ops routes (read, never counted or refused), 404, 405,
 * 413 and 415. Planted fault it was seen to fail on: the rate-limit step only inside the API.
 */
import { describe, expect, it } from "vitest";
import { serializePolicy } from "../src/rate-limit/limits.js";
import { contract, useFixtureServer } from "./support/serve.js";
import { limitsOf, otherBasePath } from "./support/widgets.js";

const suite = useFixtureServer("everywhere");

const remaining = (response: Response) => Number(response.headers.get("x-ratelimit-remaining"));
const auth = () => ({ authorization: `Bearer ${suite.key}` });
// The suite's key is of the contract's first plan (serve.ts): its windows, as RateLimit-Policy
// states them.
const policy = serializePolicy(limitsOf(contract.rateLimit.planNames[0] as string));

describe("the rate-limit headers on every response", () => {
  it("an unknown version or path is answered 404 with the headers, and counted", async () => {
    const first = await fetch(`${suite.server.url}${otherBasePath}/widgets`, { headers: auth() });
    const second = await fetch(`${suite.server.url}/nothing-here`, { headers: auth() });
    expect([first.status, second.status]).toEqual([404, 404]);
    expect(((await first.json()) as { code: string }).code).toBe("not_found");
    expect(remaining(second)).toBe(remaining(first) - 1);
  });

  it("the ops routes carry the caller's window without counting, even over the limit", async () => {
    for (const path of ["/healthz", "/readyz", "/openapi.json", "/docs"]) {
      const a = await fetch(`${suite.server.url}${path}`, { headers: auth() });
      const b = await fetch(`${suite.server.url}${path}`, { headers: auth() });
      expect(a.headers.get("x-ratelimit-limit"), path).toMatch(/^\d+$/);
      expect(a.headers.get("ratelimit-policy"), path).toBe(policy);
      expect(remaining(b), path).toBe(remaining(a));
      expect(b.headers.get("ratelimit"), path).toBe(a.headers.get("ratelimit"));
      await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
    }
  });

  it("404, 405, 413 and 415 of the API carry them too", async () => {
    const body = JSON.stringify({ label: "x".repeat(contract.bodyLimitBytes), sizeId: 1 });
    const answers = await Promise.all([
      fetch(`${suite.server.url}${contract.basePath}/unknown`, { headers: auth() }),
      fetch(`${suite.server.url}${contract.basePath}/widgets`, {
        method: "DELETE",
        headers: auth(),
      }),
      fetch(`${suite.server.url}${contract.basePath}/widgets`, {
        method: "POST",
        headers: { ...auth(), "content-type": "application/json" },
        body,
      }),
      fetch(`${suite.server.url}${contract.basePath}/widgets`, {
        method: "POST",
        headers: { ...auth(), "content-type": "text/plain" },
        body: "Cog",
      }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([404, 405, 413, 415]);
    for (const answer of answers) {
      expect(answer.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
      expect(answer.headers.get("ratelimit-policy")).toBe(policy);
      expect(answer.headers.get("ratelimit")).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
    }
  });
});
