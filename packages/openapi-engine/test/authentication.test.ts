/**
 * Authentication over HTTP: `Authorization: Bearer <key>` only; missing → 401 unauthorized with
 * the bare challenge; unknown, malformed or revoked → 401 invalid_api_key with
 * error="invalid_token"; revocation honoured within the cache TTL.
 */

import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "../src/auth/security.js";
import { contract, expectError, type FixtureApp, startFixtureApp } from "./support/serve.js";
import { basePath } from "./support/widgets.js";

const realm = contract.realm;

const MISSING = `Bearer realm="${realm}"`;
const INVALID = `Bearer realm="${realm}", error="invalid_token"`;

let app: FixtureApp;
beforeAll(async () => {
  app = await startFixtureApp();
});
afterAll(() => app.close());

function get(headers: Record<string, string>, path = "/widgets") {
  return fetch(`${app.url}${basePath}${path}`, { headers });
}

describe("authentication", () => {
  it("accepts the key as a bearer token, scheme case-insensitive", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      expect((await get({ authorization: `${scheme} ${app.key}` })).status).toBe(200);
    }
  });

  it.each([
    ["no header", {}],
    ["another scheme", { authorization: "Basic dXNlcjpwYXNz" }],
    ["an API-key header", { "x-api-key": "ask_whatever" }],
  ])("401 unauthorized for %s", async (_label, headers) => {
    const response = await get(headers as Record<string, string>);
    const body = await expectError(response, 401, "unauthorized");
    expect(response.headers.get("www-authenticate")).toBe(MISSING);
    expect(body.message).toContain("Authorization: Bearer");
  });

  it("never accepts the key in a query parameter", async () => {
    for (const name of ["api_key", "access_token", "key"]) {
      const response = await fetch(`${app.url}${basePath}/widgets?${name}=${app.key}`);
      await expectError(response, 401, "unauthorized");
    }
  });

  it.each([
    ["an unknown key", "Bearer ask_unknownunknownunknownunknown"],
    ["an empty token", "Bearer "],
    ["a token with spaces", "Bearer ask_a b"],
    ["a token with bad characters", "Bearer ask_\u00e9\u00e9"],
    ["the key's hash", "Bearer HASH"],
  ])("401 invalid_api_key for %s", async (_label, value) => {
    const authorization = value.replace("HASH", hashApiKey(app.key));
    const response = await fetch(`${app.url}${basePath}/widgets`, { headers: { authorization } });
    await expectError(response, 401, "invalid_api_key");
    expect(response.headers.get("www-authenticate")).toBe(INVALID);
  });

  it("401 invalid_api_key for a revoked key, at once without a cache", async () => {
    const key = await app.createKey({ name: "to revoke" });
    expect((await get({ authorization: `Bearer ${key}` })).status).toBe(200);
    const record = await app.store.findApiKeyByHash(hashApiKey(key));
    await app.store.revokeApiKey(record?.id ?? "", new Date().toISOString());
    const response = await get({ authorization: `Bearer ${key}` });
    await expectError(response, 401, "invalid_api_key");
    expect(response.headers.get("www-authenticate")).toBe(INVALID);
  });

  it("checks the key before anything else about the request", async () => {
    await expectError(await get({}, "/widgets?count=0"), 401, "unauthorized");
    await expectError(await get({}, "/widgets/abc"), 401, "unauthorized");
  });
});

describe("the key cache", () => {
  it("lets a revoked key go once the TTL has passed", async () => {
    const ttlMs = 300;
    const cached = await startFixtureApp({ env: { API_KEY_CACHE_TTL_MS: String(ttlMs) } });
    try {
      const key = await cached.createKey({ name: "cached" });
      const headers = { authorization: `Bearer ${key}` };
      expect((await fetch(`${cached.url}${basePath}/widgets`, { headers })).status).toBe(200);
      const record = await cached.store.findApiKeyByHash(hashApiKey(key));
      const revoked = await cached.store.revokeApiKey(record?.id ?? "", new Date().toISOString());
      expect(revoked?.revokedAt).not.toBeNull();
      await sleep(ttlMs + 50);
      await expectError(
        await fetch(`${cached.url}${basePath}/widgets`, { headers }),
        401,
        "invalid_api_key",
      );
    } finally {
      await cached.close();
    }
  });
});
