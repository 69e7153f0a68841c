/**
 * Where the API answers: under every base path of the contract's `servers`, or at the root when
 * a server has none, with the ops routes at their own paths whatever the base path (over the
 * widgets fixture, its `servers` edited).
 *
 * @see https://spec.openapis.org/oas/v3.1.1#server-object
 */
import { serverBasePaths } from "@animal-store/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editedFixture, loadFixture } from "./support/fixture-contract.js";
import { expectError, type FixtureApp, startFixtureApp } from "./support/serve.js";

const [fixtureBase] = serverBasePaths(loadFixture().spec);
const listPath = "/widgets";

describe("several servers with different base paths", () => {
  const spec = editedFixture((s) => {
    s.servers = [
      { url: `http://127.0.0.1:9090${fixtureBase}` },
      { url: "https://edge.example.test/partners/v2" },
      { url: "/" },
    ];
  });
  const bases = serverBasePaths(spec.spec);
  let app: FixtureApp;
  beforeAll(async () => {
    app = await startFixtureApp({ spec });
  });
  afterAll(() => app.close());
  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${app.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${app.key}`, ...init.headers },
    });

  it("reads three base paths, the root among them", () => {
    expect(bases).toEqual([fixtureBase, "/partners/v2", ""]);
  });

  it("answers the operation under each of them", async () => {
    for (const base of bases) {
      const response = await get(`${base}${listPath}`);
      expect(response.status, base).toBe(200);
      expect(Array.isArray(await response.json()), base).toBe(true);
    }
  });

  it("takes the longest base path first, so a path under it is not read as the root's", async () => {
    const body = await expectError(await get("/partners/v2/nothing-here"), 404, "not_found");
    // The path named as the client sent it: under /partners/v2, not the root's /partners/...
    expect(body.message).toContain("/partners/v2/nothing-here");
  });

  it("keeps the ops routes at their own paths when the root is a base path", async () => {
    const health = await fetch(`${app.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const contract = await fetch(`${app.url}/openapi.json`);
    expect(contract.status).toBe(200);
    expect(await contract.text()).toBe(spec.text);
  });

  it("answers an unknown path at the root in the API's way: counted, a credential asked for", async () => {
    const response = await fetch(`${app.url}/no-such-thing`);
    await expectError(response, 401, "unauthorized");
  });
});

describe("one server at the root", () => {
  const spec = editedFixture((s) => {
    s.servers = [{ url: "https://api.example.test" }];
  });
  let app: FixtureApp;
  beforeAll(async () => {
    app = await startFixtureApp({ spec });
  });
  afterAll(() => app.close());

  it("serves the operations at the root and the ops routes beside them", async () => {
    expect(serverBasePaths(spec.spec)).toEqual([""]);
    const list = await fetch(`${app.url}${listPath}`, {
      headers: { authorization: `Bearer ${app.key}` },
    });
    expect(list.status).toBe(200);
    for (const path of ["/healthz", "/readyz"]) {
      expect((await fetch(`${app.url}${path}`)).status, path).toBe(200);
    }
    expect(await (await fetch(`${app.url}/openapi.json`)).text()).toBe(spec.text);
  });

  it("answers 405 with Allow for a method the path lacks", async () => {
    const response = await fetch(`${app.url}${listPath}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${app.key}` },
    });
    await expectError(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toContain("GET");
  });
});

describe("the fixture's own single base path", () => {
  let app: FixtureApp;
  beforeAll(async () => {
    app = await startFixtureApp();
  });
  afterAll(() => app.close());

  it("is matched regardless of case, as Express's mount matched it", async () => {
    const upper = (fixtureBase as string).toUpperCase();
    const response = await fetch(`${app.url}${upper}${listPath}`, {
      headers: { authorization: `Bearer ${app.key}` },
    });
    expect(response.status).toBe(200);
  });

  it("leaves a path that only starts with the base path's letters outside the API", async () => {
    const response = await fetch(`${app.url}${fixtureBase}x${listPath}`, {
      headers: { authorization: `Bearer ${app.key}` },
    });
    await expectError(response, 404, "not_found");
  });
});
