/**
 * Every response of the service carries X-RateLimit-*, not only the API's: an unknown path or
 * version (counted, as the spec says), the ops routes (read, never counted or refused), 404, 405,
 * 413 and 415. Planted fault it was seen to fail on: the rate-limit step only inside the API.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server.js";
import { contract } from "./support/contract.js";
import { tempDir } from "./support/test-app.js";

const temp = tempDir();
let server: RunningServer;
let key: string;

beforeAll(async () => {
  server = await startServer({
    NODE_ENV: "test",
    PORT: "0",
    LOG_LEVEL: "silent",
    DATABASE_URL: `file:${join(temp.dir, "everywhere.db")}`,
  });
  key = await server.createKey({ plan: contract.rateLimit.planNames[0] as string, name: "every" });
});
afterAll(async () => {
  await server?.close();
  temp.remove();
});

const remaining = (response: Response) => Number(response.headers.get("x-ratelimit-remaining"));
const auth = () => ({ authorization: `Bearer ${key}` });

describe("X-RateLimit-* on every response", () => {
  it("an unknown version or path is answered 404 with the headers, and counted", async () => {
    const first = await fetch(`${server.url}/v2${"/pets"}`, { headers: auth() });
    const second = await fetch(`${server.url}/nothing-here`, { headers: auth() });
    expect([first.status, second.status]).toEqual([404, 404]);
    expect(((await first.json()) as { code: string }).code).toBe("not_found");
    expect(remaining(second)).toBe(remaining(first) - 1);
  });

  it("the ops routes carry the caller's window without counting, even over the limit", async () => {
    for (const path of ["/healthz", "/readyz", "/openapi.json", "/docs"]) {
      const a = await fetch(`${server.url}${path}`, { headers: auth() });
      const b = await fetch(`${server.url}${path}`, { headers: auth() });
      expect(a.headers.get("x-ratelimit-limit"), path).toMatch(/^\d+$/);
      expect(remaining(b), path).toBe(remaining(a));
      await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
    }
  });

  it("404, 405, 413 and 415 of the API carry them too", async () => {
    const body = JSON.stringify({ name: "x".repeat(contract.bodyLimitBytes), categoryId: 1 });
    const answers = await Promise.all([
      fetch(`${server.url}${contract.basePath}/unknown`, { headers: auth() }),
      fetch(`${server.url}${contract.basePath}/pets`, { method: "DELETE", headers: auth() }),
      fetch(`${server.url}${contract.basePath}/pets`, {
        method: "POST",
        headers: { ...auth(), "content-type": "application/json" },
        body,
      }),
      fetch(`${server.url}${contract.basePath}/pets`, {
        method: "POST",
        headers: { ...auth(), "content-type": "text/plain" },
        body: "Rex",
      }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([404, 405, 413, 415]);
    for (const answer of answers) expect(answer.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
  });
});
