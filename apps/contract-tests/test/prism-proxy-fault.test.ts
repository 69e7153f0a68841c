// Gate 1 can fail: the real server with a planted fault (an undocumented `colour` property added
// to every Pet by a proxy between the server and Prism) must be caught by `prism proxy --errors`
// on every operation that returns pets, with the violation named in the failure message.

import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopAllChildren } from "./support/child-process.js";
import { type FaultProxy, startColourInjectingProxy } from "./support/colour-injecting-proxy.js";
import { expectConforming } from "./support/conformance.js";
import { exchange } from "./support/exchange.js";
import { type PrismProxy, startPrismProxy, unmatchedStatusWarnings } from "./support/prism.js";
import { type GateServer, startGateServer } from "./support/servers.js";
import { startStatusRewritingProxy } from "./support/status-rewriting-proxy.js";

let server: GateServer;
let fault: FaultProxy;
let prism: PrismProxy;
let clean: PrismProxy;
let key: string;

beforeAll(async () => {
  server = await startGateServer();
  fault = await startColourInjectingProxy(server.origin);
  [prism, clean] = await Promise.all([
    startPrismProxy(`${fault.url}${basePath}`, true),
    startPrismProxy(server.apiUrl, true),
  ]);
  key = await server.server.createKey({
    plan: server.server.contract.rateLimit.planNames[0] as string,
    name: "planted fault",
  });
}, 120_000);

afterAll(async () => {
  await stopAllChildren();
  await fault?.close();
  await server?.close();
});

/** Runs the gate's own assertion and returns the failure it raised (or fails if it passed). */
function gateFailure(run: () => void): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the gate passed a response with an undocumented property");
}

describe("planted fault: an undocumented Pet property reaches Prism", () => {
  it("createPet's 201 is refused by prism --errors and the gate prints the violation", async () => {
    const found = await exchange(prism.url, "createPet with colour", {
      path: "/pets",
      apiKey: key,
      json: { name: "Rex", categoryId: 1 },
    });
    expect(found.status).toBe(500);
    expect(found.violations.map((v) => v.message).join("\n")).toMatch(
      /additional properties.*colour/,
    );
    const message = gateFailure(() =>
      expectConforming(found, { operation: "createPet", status: 201 }),
    );
    expect(message).toContain("createPet with colour: HTTP 500, 1 contract violation(s)");
    expect(message).toMatch(/response\.body: .*found 'colour'/);
  });

  it("getPet's 200 and listPets' 200 are refused the same way", async () => {
    const pet = await exchange(server.apiUrl, "direct create", {
      path: "/pets",
      apiKey: key,
      json: { name: "Tom", categoryId: 2 },
    });
    expect(pet.status).toBe(201);
    const id = (pet.body as { id: number }).id;
    for (const [operation, path] of [
      ["getPet", `/pets/${id}`],
      ["listPets", "/pets"],
    ] as const) {
      const found = await exchange(prism.url, `${operation} with colour`, { path, apiKey: key });
      const message = gateFailure(() => expectConforming(found, { operation, status: 200 }));
      expect(message).toMatch(/found 'colour'/);
    }
    expect(fault.injected()).toBeGreaterThanOrEqual(3);
  });

  it("the same server without the fault passes the same check (the fault is what is caught)", async () => {
    const found = await exchange(clean.url, "createPet clean", {
      path: "/pets",
      apiKey: key,
      json: { name: "Rex", categoryId: 1 },
    });
    expectConforming(found, { operation: "createPet", status: 201 });
  });
});

describe("planted fault: the server answers a status the operation does not document", () => {
  it("Prism's warning about it is caught", async () => {
    const rewriting = await startStatusRewritingProxy(server.origin, 404, 418);
    const warned = await startPrismProxy(
      `${rewriting.url}${server.server.contract.basePath}`,
      true,
    );
    try {
      const found = await exchange(warned.url, "getPet 404 rewritten to 418", {
        path: "/pets/9007199254740991",
        apiKey: key,
      });
      expect(found.status).toBe(418);
      await expect.poll(() => unmatchedStatusWarnings(warned).length).toBeGreaterThan(0);
    } finally {
      await warned.stop();
      await rewriting.close();
    }
  });
});
