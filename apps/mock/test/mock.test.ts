// Starts the mock as `pnpm mock` does and calls it like a frontend would.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedMock, launchMock } from "./launch.js";
import { deref, requestExample, responseExamples, spec } from "./spec.js";

const auth = { Authorization: "Bearer any-key-works-on-the-mock" };
const first = (examples: Record<string, unknown>) => Object.values(examples)[0];

describe("pnpm mock (named examples)", () => {
  let mock: LaunchedMock;
  beforeAll(async () => {
    mock = await launchMock();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("serves under the spec's base path, not at the root", async () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const root = await fetch(new URL("/pets", mock.url), { headers: auth });
    expect(root.status).toBe(404);
  });

  it("answers GET /v1/pets with the first named example and the rate-limit headers", async () => {
    const res = await fetch(`${mock.url}/pets`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(first(responseExamples("/pets", "get", "200")));
    for (const name of Object.keys(deref(spec.paths["/pets"].get.responses["200"]).headers)) {
      expect(res.headers.get(name), name).toMatch(/^\d+$/);
    }
  });
});
