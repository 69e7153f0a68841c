// Each operation's errors come from that operation's own examples: an invalid request to listPets,
// getPet or createPet gets the first named example of its own 400 (Prism picks the first), never
// another operation's; and `Prefer: code=429` takes every operation down its 429 path, with the
// declared Retry-After. Operations and statuses are read from the spec.
import {
  first,
  headerExample,
  requestExamples,
  resolve,
  responseAt,
  responseExamples,
  operations as specOperations,
} from "@animal-store/test-support/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedMock, launchMock } from "./launch.js";

const operations = specOperations.map(
  ({ path, method, operationId, requestBody, statuses, parameters }) => ({
    path,
    method: method.toLowerCase(),
    operationId,
    statuses,
    takesBody: requestBody !== undefined,
    // A query parameter with a maximum: one above it is a request the spec refuses.
    bounded: parameters.flatMap((p) => {
      const maximum = p.in === "query" ? resolve(p.schema).maximum : undefined;
      return typeof maximum === "number" ? [{ name: String(p.name), maximum }] : [];
    })[0],
  }),
);
const takesBody = (path: string, method: string) =>
  operations.some((o) => o.path === path && o.method === method && o.takesBody);

/**
 * A request the spec refuses, per operation: an empty body, a path parameter that is no number,
 * or a query parameter above its maximum. An operation without any of them (no body, no
 * parameter) has nothing Prism could refuse (it answers 200 to an unknown query parameter, where
 * the server answers 400), so its 400 is asked for with `Prefer: code=400`.
 */
function invalidRequest(path: string, method: string): { url: string; init: RequestInit } {
  const headers = { Authorization: "Bearer k", "Content-Type": "application/json" };
  if (takesBody(path, method)) {
    const url = path.replace(/\{\w+\}/, "1");
    return { url, init: { method: method.toUpperCase(), headers, body: "{}" } };
  }
  if (path.includes("{"))
    return { url: path.replace(/\{\w+\}/, "not-a-number"), init: { headers } };
  const bounded = operations.find((o) => o.path === path && o.method === method)?.bounded;
  if (bounded) return { url: `${path}?${bounded.name}=${bounded.maximum + 1}`, init: { headers } };
  return { url: path, init: { headers: { ...headers, Prefer: "code=400" } } };
}

describe("pnpm mock: errors per operation", () => {
  let mock: LaunchedMock;
  beforeAll(async () => {
    mock = await launchMock();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  const with400 = operations.filter(({ statuses }) => statuses.includes("400"));

  it("every operation has its own 400 examples", () => {
    expect(with400.map(({ operationId }) => operationId).sort()).toEqual(
      operations.map(({ operationId }) => operationId).sort(),
    );
    const firsts = with400.map(({ path, method }) =>
      JSON.stringify(first(responseExamples(path, method, "400"))),
    );
    expect(new Set(firsts).size).toBe(firsts.length);
  });

  it.each(with400.map(({ path, method, operationId }) => [operationId, path, method] as const))(
    "%s: an invalid request gets the first example of its own 400",
    async (_operationId, path, method) => {
      const { url, init } = invalidRequest(path, method);
      const res = await fetch(`${mock.url}${url}`, init);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(first(responseExamples(path, method, "400")));
    },
  );

  it.each(operations.map(({ path, method, operationId }) => [operationId, path, method] as const))(
    "%s: Prefer: code=429 answers the 429 with its Retry-After",
    async (_operationId, path, method) => {
      const response = responseAt(path, method, "429");
      const retryAfter = headerExample(path, method, "429", "Retry-After");
      const body = takesBody(path, method)
        ? JSON.stringify(first(requestExamples(path, method)))
        : undefined;
      const res = await fetch(`${mock.url}${path.replace(/\{\w+\}/, "1")}`, {
        method: method.toUpperCase(),
        headers: {
          Authorization: "Bearer k",
          "Content-Type": "application/json",
          Prefer: "code=429",
        },
        ...(body ? { body } : {}),
      });
      expect(res.status).toBe(429);
      expect(res.headers.get("Retry-After")).toBe(retryAfter);
      for (const { name } of response.headers) {
        expect(res.headers.get(name), name).not.toBeNull();
      }
      expect(await res.json()).toEqual(first(responseExamples(path, method, "429")));
    },
  );
});
