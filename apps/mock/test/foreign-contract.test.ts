// `pnpm mock --spec` (Prism) on a foreign fixture contract whose servers have two base paths and
// whose operations take an API key, HTTP Basic or OAuth2: it serves under both base paths, and
// its note names the contract's own schemes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type LaunchedMock, launchMock } from "./launch.js";

const fixture = fileURLToPath(
  new URL(
    "../../../packages/test-support/fixtures/contracts/harbour-ferries.yaml",
    import.meta.url,
  ),
);
const spec = parse(readFileSync(fixture, "utf8"));
const scratch = mkdtempSync(join(tmpdir(), "foreign-mock-"));
const specPath = join(scratch, "openapi.json");
writeFileSync(specPath, JSON.stringify(spec));

describe("pnpm mock on a foreign contract", { timeout: 60_000 }, () => {
  let mock: LaunchedMock;
  beforeAll(async () => {
    mock = await launchMock(["--spec", specPath]);
  });
  afterAll(async () => {
    await mock?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("serves the first server's base path as its URL, and the other one too", async () => {
    expect(new URL(mock.url).pathname).toBe("/ferries/v2");
    for (const base of ["/ferries/v2", "/v2"]) {
      const res = await fetch(`${mock.origin}${base}/stations`);
      expect(res.status, base).toBe(200);
      expect(await res.json()).toEqual(
        spec.paths["/stations"].get.responses["200"].content["application/json"].example,
      );
    }
    expect((await fetch(`${mock.origin}/stations`)).status).toBe(404);
  });

  it("names the contract's own schemes in its note, not a bearer token alone", () => {
    expect(mock.output()).toContain("Harbour Ferries API mock (Prism) serving");
    const note = mock
      .output()
      .split("\n")
      .find((line) => line.startsWith("Point the client"));
    expect(note).toContain(`${mock.origin}/v2`);
    expect(note).toContain("ApiKey: any value in the X-Api-Key header");
    expect(note).toContain("Basic: any user and password (Authorization: Basic ...)");
    expect(note).toContain("OAuth2: any bearer token (Authorization: Bearer ...)");
    expect(note).toContain("(some operations need none)");
  });

  it("enforces the schemes: Basic for the avatar, an API key for a station", async () => {
    const avatar = `${mock.url}/account/avatar`;
    const png = { method: "PUT", body: new Uint8Array([137, 80, 78, 71]) };
    expect((await fetch(avatar, { ...png, headers: { "content-type": "image/png" } })).status).toBe(
      401,
    );
    const basic = `Basic ${Buffer.from("ann:secret").toString("base64")}`;
    const withBasic = await fetch(avatar, {
      ...png,
      headers: { "content-type": "image/png", authorization: basic },
    });
    expect(withBasic.status).toBe(204);
    const station = `${mock.url}/stations/efdbb9d1-02c2-4bc3-afb7-6788d8782b1e`;
    expect((await fetch(station)).status).toBe(401);
    expect((await fetch(station, { headers: { "x-api-key": "k" } })).status).toBe(200);
  });
});

// The stateful mock on the same contract: the engine checks Basic and OAuth2 credentials only
// through an application's verifiers, and the mock gives one per such scheme (any credential of
// the right form, as any well-formed key).
describe("pnpm mock --stateful on a contract with Basic and OAuth2", { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "foreign-stateful-"));
  const path = join(dir, "openapi.json");
  // Without its binary (application/pdf) answer, which the any-contract mock cannot give yet
  // (its warm-up answers 500): the root README's "Not generic yet".
  const { "/bookings/{booking-id}/ticket": _ticket, ...paths } = spec.paths;
  writeFileSync(path, JSON.stringify({ ...spec, paths }));
  let mock: LaunchedMock;
  beforeAll(async () => {
    mock = await launchMock(["--stateful", "--any-contract", "--spec", path], 60_000);
  });
  afterAll(async () => {
    await mock?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("accepts any OAuth2 token and any Basic credential; refuses a request with none", async () => {
    const example = spec.paths["/bookings"].post.requestBody.content["application/json"].example;
    const create = (headers: Record<string, string>) =>
      fetch(`${mock.url}/bookings`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(example),
      });
    expect((await create({})).status).toBe(401);
    const created = await create({ authorization: "Bearer any-token" });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject(example);
    const avatar = `${mock.url}/account/avatar`;
    const png = { method: "PUT", body: new Uint8Array([137, 80, 78, 71]) };
    const basic = `Basic ${Buffer.from("ann:secret").toString("base64")}`;
    const bare = await fetch(avatar, { ...png, headers: { "content-type": "image/png" } });
    expect(bare.status).toBe(401);
    const withBasic = await fetch(avatar, {
      ...png,
      headers: { "content-type": "image/png", authorization: basic },
    });
    expect(withBasic.status).toBe(204);
  });
});
