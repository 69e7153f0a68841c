// Contract gate 2 against the real server: every workflow in openapi/arazzo/ passes under
// `redocly respect` (which also checks each response's status, content type and schema against the
// contract), and the happy path fails when a planted fault (an undocumented Pet property added
// between server and Respect) is in the way.
import { basePath, pagedList } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultProxy, startColourInjectingProxy } from "./support/colour-injecting-proxy.js";
import { runRespect, workflowFile } from "./support/respect.js";
import { type GateServer, startGateServer } from "./support/servers.js";

let server: GateServer;
let fault: FaultProxy;
let apiKey: string;
let lowLimitKey: string;

beforeAll(async () => {
  server = await startGateServer();
  fault = await startColourInjectingProxy(server.origin);
  apiKey = await server.server.createKey({ plan: "pro", name: "arazzo gate" });
  // 2 a minute and 2 a day: the third request is refused whatever minute it falls in.
  lowLimitKey = await server.server.createKey({
    plan: "enterprise",
    name: "arazzo tiny",
    perMinute: 2,
    perDay: 2,
  });
}, 60_000);

afterAll(async () => {
  await fault?.close();
  await server?.close();
});

describe("Arazzo workflows against the real server", () => {
  it.each([
    ["pets.arazzo.yaml", 3],
    ["auth-failures.arazzo.yaml", 2],
    ["validation-errors.arazzo.yaml", 2],
    ["paging.arazzo.yaml", 2],
  ])("%s: all %i workflows pass", async (file, workflows) => {
    // The page sizes the workflows need are the spec's (an edit of the bounds needs no edit there).
    const pageMax = pagedList().max;
    const inputs = { apiKey, pageMax, pageOverMax: pageMax + 1 };
    const run = await runRespect(workflowFile(file), server.apiUrl, inputs);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toContain(`Workflows: ${workflows} passed, ${workflows} total`);
    expect(run.output).not.toContain(apiKey);
  });

  it("rate-limit.arazzo.yaml: the low-limit key runs into 429", async () => {
    const run = await runRespect(workflowFile("rate-limit.arazzo.yaml"), server.apiUrl, {
      lowLimitKey,
    });
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toContain("Workflows: 1 passed, 1 total");
    expect(run.output).not.toContain(lowLimitKey);
  });
});

describe("planted fault: an undocumented Pet property between server and Respect", () => {
  it("the happy path fails on the schema check", async () => {
    const run = await runRespect(
      workflowFile("pets.arazzo.yaml"),
      `${fault.url}${basePath}`,
      { apiKey, pageMax: pagedList().max },
      ["createGetList"],
    );
    expect(run.exitCode).not.toBe(0);
    expect(run.output).toMatch(/✗ schema check/);
    expect(run.output).toMatch(/colour/);
    expect(fault.injected()).toBeGreaterThan(0);
  });
});
