// The loop end to end on a scratch copy of the contract, with the real mock launcher as the
// service it restarts: a good save reaches the mock, a bad save is reported and changes nothing.

import { connect } from "node:net";
import { join } from "node:path";
import { basePathOf, loadBundledSpec } from "@animal-store/openapi";
import { freePort } from "@animal-store/test-support/free-port";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevLoop } from "../src/dev-loop.mjs";
import { type Json, layout, scratchSpec } from "./scratch.js";

const basePath = basePathOf(loadBundledSpec().spec);

const scratch = scratchSpec();
const lines: string[] = [];
let port = 0;
let loop: Awaited<ReturnType<typeof startDevLoop>>;

/** GET /v1/pets on the mock asking for the named example `name` (status and body). */
async function example(name: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}${basePath}/pets`, {
    headers: { Authorization: "Bearer k", Prefer: `example=${name}` },
  });
  return { status: res.status, body: await res.json() };
}

/** Waits until `predicate` holds for a line printed by the loop. */
async function printed(predicate: (line: string) => boolean, from: number): Promise<string> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    const line = lines.slice(from).find(predicate);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not printed; the loop said:\n${lines.join("\n")}`);
}

/** The named examples of listPets' 200 response in a parsed spec. */
const listPetsExamples = (spec: Json): Record<string, Json> =>
  spec.paths["/pets"].get.responses["200"].content["application/json"].examples;

describe("startDevLoop", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    port = await freePort();
    loop = await startDevLoop({
      spec: scratch,
      services: [
        {
          name: "mock",
          main: layout.mockMain,
          args: ["--spec", join(scratch.distDir, "openapi.json"), "--port", String(port)],
          cwd: scratch.dir,
          env: { ...process.env, MOCK_LOG_LEVEL: "silent" },
          address: { host: "127.0.0.1", port },
          preload: [layout.mockPreload],
        },
      ],
      docs: null,
      env: process.env,
      print: (line) => lines.push(line),
    });
  }, 60_000);

  afterAll(async () => {
    await loop?.stop();
    scratch.remove();
  });

  it("builds, then serves the bundled spec", async () => {
    expect(lines.join("\n")).toMatch(/\[dev\] start: started mock in .*ready .* after start/);
    expect((await example("empty")).body).toEqual([]);
  });

  it("a good save is linted, bundled, regenerated and reaches the restarted mock", async () => {
    const from = lines.length;
    scratch.edit((spec) => {
      listPetsExamples(spec).fromTest = {
        summary: "Added by a test",
        value: [{ id: 9, name: "Nine", categoryId: 1 }],
      };
      // A new optional field changes the generated types too (one the spec does not have yet).
      expect(spec.components.schemas.Pet.properties.devLoopTestField).toBeUndefined();
      spec.components.schemas.Pet.properties.devLoopTestField = {
        type: "string",
        description: "A test field.",
      };
    });
    const done = await printed((line) => line.includes("after the save"), from);
    expect(done).toMatch(
      /^\[dev\] openapi\.yaml saved: restarted mock in [\d.]+ m?s \(lint [\d.]+ m?s, bundle [\d.]+ m?s, generate [\d.]+ m?s, regenerated api-types/,
    );
    expect(await example("fromTest")).toEqual({
      status: 200,
      body: [{ id: 9, name: "Nine", categoryId: 1 }],
    });
  });

  it("a save that fails lint is reported and the last good build keeps running", async () => {
    const from = lines.length;
    scratch.edit((spec) => {
      listPetsExamples(spec).fromTest = { summary: "Breaks the schema", value: [{ id: "nine" }] };
    });
    await printed((line) => line.includes("lint failed; the last good build keeps running"), from);
    const problem = await printed((line) => line.includes("no-invalid-media-type-examples"), from);
    // Relative to the root the loop was given (the repository's, under `pnpm dev`).
    expect(problem).toMatch(/^ {2}openapi\/openapi\.yaml:\d+:\d+ {2}error/);
    expect(lines.slice(from).some((line) => line.includes("after the save"))).toBe(false);
    expect((await example("fromTest")).body).toEqual([{ id: 9, name: "Nine", categoryId: 1 }]);
  });

  it("fixing the spec restarts again", async () => {
    const from = lines.length;
    scratch.edit((spec) => {
      listPetsExamples(spec).fromTest = { summary: "Fixed", value: [] };
    });
    await printed((line) => line.includes("after the save"), from);
    expect((await example("fromTest")).body).toEqual([]);
  });

  it("stop() stops the mock and its standby", async () => {
    await loop.stop();
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => resolve(socket.destroy() && false));
      socket.once("error", () => resolve(true));
    });
    expect(refused).toBe(true);
  });
});
