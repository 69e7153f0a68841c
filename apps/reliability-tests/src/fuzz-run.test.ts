import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { deprecated } from "@animal-store/test-support/spec-values";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { positiveDataAcceptance } from "./checks/data-checks.js";
import { fuzzContract } from "./fuzz-contract.js";
import { CoverageLedger } from "./fuzz-coverage.js";
import { DEFAULT_SEED, fuzzSettings, runCases, runProperty, seedFor } from "./fuzz-run.js";
import type { OperationSpec, ParameterSpec } from "./spec.js";

const contract = fuzzContract();
/** An operation with an integer query parameter (listPets and its `limit`). */
const listing = contract.operations
  .flatMap((op) => op.parameters.map((p) => ({ op, p })))
  .find(({ p }) => p.in === "query" && p.schema.type === "integer" && !p.required) as {
  op: OperationSpec;
  p: ParameterSpec;
};
const BREAKS_ABOVE = 37;

/** The headers the spec's deprecation of that operation adds to every answer (none if it has none). */
const deprecationHeaders =
  deprecated.find(({ op }) => op.operationId === listing.op.operationId)?.headers ?? {};

/**
 * A stand-in for the server that answers every request of that operation like the contract says
 * (the rate-limit and request-id headers, the deprecation headers if the spec deprecates it, an
 * empty page) except for that parameter above 37: 500.
 */
function brokenStandIn(): Server {
  return createServer((req, res) => {
    const { searchParams } = new URL(req.url ?? "/", "http://x");
    const limit = Number(searchParams.get(listing.p.name) ?? 0);
    const failing = limit > BREAKS_ABOVE;
    res.writeHead(failing ? 500 : 200, {
      "content-type": "application/json",
      "x-ratelimit-limit": "100",
      "x-ratelimit-remaining": "99",
      "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 60),
      "ratelimit-policy": '"minute";q=100;w=60, "day";q=1000;w=86400',
      ratelimit: '"minute";r=99;t=60, "day";r=999;t=3600',
      "x-request-id": randomUUID(),
      ...deprecationHeaders,
    });
    const error = { code: "internal_error", message: "planted", status: 500 };
    res.end(JSON.stringify(failing ? error : []));
  });
}

let standIn: Server;

beforeAll(async () => {
  standIn = brokenStandIn();
  await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
});

afterAll(() => new Promise<void>((resolve) => standIn.close(() => resolve())));

describe("shrinking", () => {
  it("reports the minimal failing request: the first limit the stand-in breaks on, nothing else", async () => {
    const origin = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    const run = {
      contract,
      target: { origin, key: "ask_stand-in", forwardedFor: false },
      settings: fuzzSettings({}),
      ledger: new CoverageLedger(contract),
    };
    const error = await positiveDataAcceptance(run, listing.op).then(
      () => null,
      (e: unknown) => e as Error,
    );
    console.log(error?.message);
    expect(error?.message).toMatch(/shrunk \d+ times/);
    expect(error?.message).toContain(
      `GET ${contract.basePath}${listing.op.path}?${listing.p.name}=${BREAKS_ABOVE + 1}\n`,
    );
    expect(error?.message).toMatch(/→ HTTP 500[\s\S]*why: expected one of 200, got 500/);
  });

  it("keeps the failing input's own exchanges, and names a fixed case's label", async () => {
    const property = runProperty(
      "t",
      fc.integer({ min: 0, max: 1000 }),
      async (n, trail) => {
        trail.push({ request: { method: "GET", target: `/n/${n}` }, response: null, error: "x" });
        if (n >= 10) throw new Error(`${n} is too big`);
      },
      { seed: 1, runs: 200 },
    );
    await expect(property).rejects.toThrow(
      /GET \/n\/10\n {2}\(no body\)\n→ no answer: x\nwhy: 10 is too big/,
    );
    const cases = runCases("c", [{ label: "the second" }], async () => {
      throw new Error("no");
    });
    await expect(cases).rejects.toThrow(
      /c: failed on the second[\s\S]*nothing was sent[\s\S]*why: no/,
    );
  });
});

describe("fuzz settings", () => {
  it("uses a fixed seed unless FUZZ_SEED says otherwise, and FUZZ_RUNS per property", () => {
    expect(fuzzSettings({})).toEqual({ seed: DEFAULT_SEED, runs: 200 });
    expect(fuzzSettings({ FUZZ_SEED: "-42", FUZZ_RUNS: "7" })).toEqual({ seed: -42, runs: 7 });
  });

  it("refuses values that are not whole numbers, naming the variable", () => {
    expect(() => fuzzSettings({ FUZZ_SEED: "abc" })).toThrow(/FUZZ_SEED/);
    expect(() => fuzzSettings({ FUZZ_RUNS: "0" })).toThrow(/FUZZ_RUNS must be at least 1/);
    expect(() => fuzzSettings({ FUZZ_RUNS: "1.5" })).toThrow(/FUZZ_RUNS/);
  });

  it("gives each property its own seed, the same on every run", () => {
    const settings = { seed: 5, runs: 1 };
    expect(seedFor(settings, "a")).toBe(seedFor(settings, "a"));
    expect(seedFor(settings, "a")).not.toBe(seedFor(settings, "b"));
    expect(seedFor(settings, "a")).not.toBe(seedFor({ seed: 6, runs: 1 }, "a"));
  });
});
