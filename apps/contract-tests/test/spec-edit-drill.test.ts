// The spec-edit drill: scratch copies of openapi/openapi.yaml, each with one edit a person makes
// every week, go through the real loop (the project's `redocly lint`, `redocly bundle`), and the
// real server built from each bundle, with no code change, answers as the edited spec says. Every
// answer goes through `prism proxy --errors` on the same edited bundle: any violation fails.
//   (a) listPets deprecated, with a sunset ahead and one passed
//   (b) the Free plan at 30 requests a minute
//   (c) an extra optional response property
//   (d) an operation anyone may call (security: [])
//   (e) getPet's sunset moved (x-sunset and the prose saying it; the bundle writes the headers)
//   (f) the same edit and the Free plan at 30, followed by both mock modes (`pnpm mock --spec`
//       on the edited bundle: Prism's headers, and the stateful mock's limits and sunset, its
//       answers through `prism proxy --errors` on that bundle too)

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { readSpec } from "@animal-store/openapi";
import { clockFromMinuteStart } from "@animal-store/test-support/minute-window";
import {
  deprecate,
  findOperation,
  moveSunset,
  openToAnyone,
  optionalProperty,
  planPerMinute,
  type SpecEdit,
} from "@animal-store/test-support/spec-edits";
import { basePath, dayAfter, dayFromToday } from "@animal-store/test-support/spec-values";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { bundledContractPath } from "../src/contract-paths.js";
import { runRedocly } from "../src/redocly-cli.js";
import { stopAllChildren } from "./support/child-process.js";
import { expectConforming } from "./support/conformance.js";
import { exchange, type ScenarioRequest } from "./support/exchange.js";
import { startMock } from "./support/mock.js";
import { startPrismProxy } from "./support/prism.js";
import { type GateServer, startGateServer } from "./support/servers.js";

const specDir = join(dirname(bundledContractPath()), "..");
const source = readFileSync(join(specDir, "openapi.yaml"), "utf8");
const scratch = mkdtempSync(join(tmpdir(), "spec-edit-drill-"));
const servers: GateServer[] = [];
afterAll(async () => {
  await stopAllChildren();
  await Promise.allSettled(servers.map((server) => server.close()));
  rmSync(scratch, { recursive: true, force: true });
});

/** The edited spec linted and bundled as `pnpm bundle` does; resolves with the bundle's path. */
async function editedBundle(name: string, ...edits: SpecEdit[]): Promise<string> {
  const dir = join(scratch, name);
  const spec = parse(source);
  for (const edit of edits) edit(spec);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "openapi.yaml"), stringify(spec));
  const yaml = join(dir, "openapi.yaml");
  // The real redocly.yaml: its plugin (the spec-facts rules and decorator) is found relative to it.
  const config = join(specDir, "redocly.yaml");
  const lint = await runRedocly(["lint", yaml, "--config", config]);
  expect(lint.exitCode, lint.output).toBe(0);
  const bundle = join(dir, "openapi.json");
  const bundled = await runRedocly(["bundle", yaml, "--config", config, "-o", bundle]);
  expect(bundled.exitCode, bundled.output).toBe(0);
  return bundle;
}

/** Calls through `prism proxy --errors` on `bundle` in front of `apiUrl`; any violation fails. */
async function conformingCalls(name: string, apiUrl: string, bundle: string) {
  const prism = await startPrismProxy(apiUrl, true, bundle);
  return async (operationId: string, status: number, request: ScenarioRequest) => {
    const found = await exchange(prism.url, `${name}: ${operationId}`, request);
    expectConforming(found, { operation: operationId, status });
    return found;
  };
}

/**
 * The edited spec bundled, the server on it (on a clock from the start of a UTC minute, so a
 * test that counts a minute's quota never straddles two windows), Prism in front.
 */
async function drill(name: string, ...edits: SpecEdit[]) {
  const bundle = await editedBundle(name, ...edits);
  const server = await startGateServer(
    {},
    { spec: readSpec(bundle), clock: clockFromMinuteStart() },
  );
  servers.push(server);
  return { server, call: await conformingCalls(name, server.apiUrl, bundle) };
}

const listPath = findOperation(parse(source), "listPets").path;
const sunsetOf = (operationId: string) =>
  new Date(`${findOperation(parse(source), operationId).op["x-sunset"]}T00:00:00Z`);
// getPet's sunset moved half a year later, computed from the spec's (never a literal date).
const movedSunset = dayAfter(sunsetOf("getPet").toISOString().slice(0, 10), 180);

// Under `pnpm drill:spec-edits` the spec is already edited: these edits of the committed spec do
// not apply to it (the drill itself is what runs there).
describe.skipIf(process.env.SPEC_EDIT_DRILL !== undefined)("the spec-edit drill", () => {
  it.concurrent.each([
    ["ahead: 200 with Deprecation, Sunset and Link", dayFromToday(-30), dayFromToday(1800), 200],
    ["passed: 410 gone, with the headers", "2024-01-01", "2025-06-01", 410],
  ] as const)("(a) listPets deprecated, sunset %s", async (_label, since, sunset, status) => {
    const replacement = "GET /pets/{petId}";
    const { server, call } = await drill(
      `deprecated-${status}`,
      deprecate("listPets", { since, sunset, replacement }),
    );
    const key = await server.server.createKey({ plan: "pro", name: "drill" });
    const answer = await call("listPets", status, { path: listPath, apiKey: key });
    expect(answer.headers.get("sunset")).toBe(new Date(`${sunset}T00:00:00Z`).toUTCString());
    expect(answer.headers.get("deprecation")).toBe(`@${Date.parse(`${since}T00:00:00Z`) / 1000}`);
    expect(answer.headers.get("link")).toBe(`<${basePath}/pets/{petId}>; rel="successor-version"`);
    if (status === 410) expect(answer.body).toMatchObject({ code: "gone", status: 410 });
  });

  it.concurrent("(b) the Free plan at 30 a minute: a free key is counted on 30, and refused after", async () => {
    const { server, call } = await drill("free-30", planPerMinute("free", 30));
    const key = await server.server.createKey({ plan: "free", name: "drill" });
    const first = await call("listPets", 200, { path: listPath, apiKey: key });
    expect(first.headers.get("x-ratelimit-limit")).toBe("30");
    for (let i = 1; i < 30; i++) await call("listPets", 200, { path: listPath, apiKey: key });
    const refused = await call("listPets", 429, { path: listPath, apiKey: key });
    expect(refused.body).toMatchObject({ code: "rate_limited" });
  });

  it.concurrent("(c) an extra optional response property: every answer still conforms", async () => {
    const { server, call } = await drill(
      "optional-property",
      optionalProperty("Pet", "drillNickname", { type: "string", description: "A nickname." }),
    );
    const key = await server.server.createKey({ plan: "pro", name: "drill" });
    const created = await call("createPet", 201, {
      path: listPath,
      apiKey: key,
      json: { name: "Rex", categoryId: 1 },
    });
    const id = (created.body as { id: number }).id;
    await call("getPet", 200, { path: `${listPath}/${id}`, apiKey: key });
    await call("listPets", 200, { path: listPath, apiKey: key });
  });

  it.concurrent("(d) listPets with security: [] answers without a key; the others still need one", async () => {
    const { call } = await drill("open-list", openToAnyone("listPets"));
    const open = await call("listPets", 200, { path: listPath });
    expect(open.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    await call("getPet", 401, { path: `${listPath}/1`, apiKey: "never-issued" });
  });

  it.concurrent("(e) getPet's sunset moved: the server and Prism on the new bundle agree on the new Sunset", async () => {
    const sunset = movedSunset;
    const { server, call } = await drill("sunset-moved", moveSunset("getPet", sunset));
    const key = await server.server.createKey({ plan: "pro", name: "drill" });
    const answer = await call("getPet", 404, { path: `${listPath}/424242`, apiKey: key });
    expect(answer.headers.get("sunset")).toBe(new Date(`${sunset}T00:00:00Z`).toUTCString());
  });

  it.concurrent("(f) the sunset moved and the Free plan at 30: both mock modes follow the new bundle", async () => {
    const sunset = movedSunset;
    const bundle = await editedBundle(
      "mocks",
      moveSunset("getPet", sunset),
      planPerMinute("free", 30),
    );
    const newSunset = new Date(`${sunset}T00:00:00Z`).toUTCString();
    const prismMock = await startMock(["--spec", bundle]);
    const canned = await fetch(`${prismMock.url}${listPath}/1`, {
      headers: { Authorization: "Bearer any" },
    });
    expect(canned.headers.get("sunset")).toBe(newSunset);
    // A day after the old sunset: the new one has not come, so getPet still answers. The free
    // plan is the stateful mock's default (the spec's anonymous plan).
    const now = new Date(sunsetOf("getPet").getTime() + 86_400_000).toISOString();
    const stateful = await startMock(["--stateful", "--spec", bundle, "--now", now]);
    const call = await conformingCalls("mocks", stateful.url, bundle);
    const answer = await call("getPet", 200, { path: `${listPath}/1`, apiKey: "any" });
    expect(answer.headers.get("sunset")).toBe(newSunset);
    const first = await call("listPets", 200, { path: listPath, apiKey: "counted" });
    expect(first.headers.get("x-ratelimit-limit")).toBe("30");
    for (let i = 1; i < 30; i++) await call("listPets", 200, { path: listPath, apiKey: "counted" });
    const refused = await call("listPets", 429, { path: listPath, apiKey: "counted" });
    expect(refused.body).toMatchObject({ code: "rate_limited" });
  });
});
