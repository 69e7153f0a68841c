/**
 * Each check class of the fuzz suite, run once against a planted fault, must fail on it: a proxy
 * in front of the real server that drops a header, slips a key in, shifts an id, trims `Allow`,
 * cuts a next link's cursor or answers a refused cursor with a page; or a checker reading an
 * edited contract (a lower maximum, a required header, an operation open to anyone) while the
 * server serves the real one. Where the contract has no operation a check applies to (a required
 * header, `security: []`), a server serving the edited contract shows the check passes when the
 * server does what it says. Failures are printed as the checks report them: the shrunk request
 * and its answer.
 */
import type { ScratchServer } from "@animal-store/openapi-engine/testing";
import type { Store } from "@animal-store/server";
import { edited, openToAnyone } from "@animal-store/test-support/spec-edits";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { negativeDataRejection, positiveDataAcceptance } from "../src/checks/data-checks.js";
import { faultStatuses } from "../src/checks/fault-statuses.js";
import { forgedCursors } from "../src/checks/forged-cursors.js";
import { ignoredAuth } from "../src/checks/ignored-auth.js";
import { issuedCursors } from "../src/checks/issued-cursors.js";
import { missingRequiredHeader } from "../src/checks/missing-header.js";
import { resourceAvailability } from "../src/checks/resource-availability.js";
import { unsupportedMethod } from "../src/checks/unsupported-method.js";
import { startFaultTargets, startFuzzServer } from "../src/fault-targets.js";
import { type FuzzContract, fuzzContract } from "../src/fuzz-contract.js";
import { type CheckResult, CoverageLedger } from "../src/fuzz-coverage.js";
import type { FuzzRun } from "../src/fuzz-exchange.js";
import { fuzzSettings } from "../src/fuzz-run.js";
import { type Rewrites, startRewritingProxy } from "../src/rewriting-proxy.js";
import type { OperationSpec } from "../src/spec.js";
import { withBound, withRequiredHeader } from "../src/spec-plantings.js";

const contract = fuzzContract();
const settings = { ...fuzzSettings(), runs: 30 };
const first = contract.operations[0] as OperationSpec;
const creates = contract.operations.find((op) => op.links.length > 0) as OperationSpec;
const paged = contract.operations.find((op) => op.pagination) as OperationSpec;
const servers: ScratchServer<Store>[] = [];
let key: string;
let faults: Awaited<ReturnType<typeof startFaultTargets>>;

/** A server on `spec` (default: the bundled contract) with a key of roomy limits. */
async function serve(spec?: object): Promise<ScratchServer<Store>> {
  const loaded = spec === undefined ? {} : { spec: { spec, text: JSON.stringify(spec) } as never };
  const server = await startFuzzServer(contract, { name: "planted", ...loaded });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  const main = await serve();
  key = main.key;
  faults = await startFaultTargets(main, contract);
});

afterAll(async () => {
  await Promise.allSettled([...servers.map((s) => s.close()), faults?.close()]);
});

function runOn(origin: string, checker: FuzzContract = contract, ownKey = key): FuzzRun {
  return {
    contract: checker,
    target: { origin, key: ownKey, forwardedFor: true },
    settings,
    ledger: new CoverageLedger(checker),
  };
}

/** Runs `check` through a proxy planting `rewrites` in front of the main server. */
async function throughProxy(rewrites: Rewrites, check: (run: FuzzRun) => Promise<CheckResult>) {
  const proxy = await startRewritingProxy(servers[0]?.url as string, rewrites);
  try {
    return await check(runOn(proxy.origin));
  } finally {
    await proxy.close();
  }
}

/** `outcome` must reject with a report matching `pattern`; the report is printed. */
async function caught(outcome: Promise<CheckResult>, pattern: RegExp): Promise<void> {
  const error = await outcome.then(
    () => null,
    (e: unknown) => e as Error,
  );
  expect(error, "the check passed on a planted fault").not.toBeNull();
  console.log(`planted fault caught:\n${error?.message}\n`);
  expect(error?.message).toMatch(pattern);
}

describe("each check class fails on a planted fault", () => {
  it("negative data rejection: the server accepts what the contract's lower maximum forbids", async () => {
    const planted = withBound(contract.doc, "maximum", 0.5);
    const run = runOn(servers[0]?.url as string, fuzzContract(planted.doc));
    const op = run.contract.byId(planted.operationId);
    await caught(
      negativeDataRejection(run, op),
      new RegExp(`${planted.name}=${planted.bound + 1}\\b[\\s\\S]*→ HTTP 200`),
    );
  });

  it("positive data acceptance: the server refuses what a higher maximum allows (shrunk to the first)", async () => {
    const planted = withBound(contract.doc, "maximum", 2);
    const run = runOn(servers[0]?.url as string, fuzzContract(planted.doc));
    const op = run.contract.byId(planted.operationId);
    const minimal = `${planted.name}=${planted.original + 1}`;
    await caught(
      positiveDataAcceptance(run, op),
      new RegExp(`shrunk[\\s\\S]*\\?${minimal}\\n[\\s\\S]*→ HTTP 400`),
    );
  });

  it("missing required header: passes when the server requires it, fails when it ignores it", async () => {
    const planted = withRequiredHeader(contract.doc, first.operationId);
    const checker = fuzzContract(planted);
    const enforcing = await serve(planted);
    const op = checker.byId(first.operationId);
    const result = await missingRequiredHeader(runOn(enforcing.url, checker, enforcing.key), op);
    expect(result.applied).toBe(true);
    await caught(
      missingRequiredHeader(runOn(servers[0]?.url as string, checker), op),
      /expected 400, got 2\d\d/,
    );
  });

  it("unsupported method: a proxy trims OPTIONS from Allow", async () => {
    const trim: Rewrites = {
      response: (_req, res) => {
        const allow = res.headers.allow;
        if (typeof allow === "string") res.headers.allow = allow.replace(/,?\s*OPTIONS/, "");
      },
    };
    await caught(
      throughProxy(trim, (run) => unsupportedMethod(run, first)),
      /Allow is/,
    );
  });

  it("ignored auth: a proxy slips a valid key into every request", async () => {
    const slip: Rewrites = {
      request: (req) => {
        req.headers.authorization = `Bearer ${key}`;
      },
    };
    await caught(
      throughProxy(slip, (run) => ignoredAuth(run, first)),
      /expected 401, got/,
    );
  });

  it("ignored auth: passes on an operation open to anyone, fails when the server still asks for a key", async () => {
    const open = edited(contract.doc, openToAnyone(first.operationId));
    const checker = fuzzContract(open);
    const op = checker.byId(first.operationId);
    const anonymous = await serve(open);
    expect((await ignoredAuth(runOn(anonymous.url, checker, anonymous.key), op)).applied).toBe(
      true,
    );
    await caught(
      ignoredAuth(runOn(servers[0]?.url as string, checker), op),
      /without a key, yet it got 401/,
    );
  });

  it("resource availability after create: a proxy shifts the id the create answers", async () => {
    const shift: Rewrites = {
      response: (req, res) => {
        if (req.method !== "POST" || res.status >= 300) return;
        const body = JSON.parse(res.body.toString()) as { id: number };
        res.body = Buffer.from(JSON.stringify({ ...body, id: body.id + 1_000_000 }));
      },
    };
    await caught(
      throughProxy(shift, (run) => resourceAvailability(run, creates)),
      /is not available/,
    );
  });

  it("response headers conformance: a proxy drops X-Request-Id", async () => {
    const drop: Rewrites = { response: (_req, res) => void delete res.headers["x-request-id"] };
    await caught(
      throughProxy(drop, (run) => positiveDataAcceptance(run, first)),
      /response headers conformance: header X-Request-Id is missing/,
    );
  });

  it("issued cursors followed: a proxy cuts the last character of every next link's cursor", async () => {
    const cut: Rewrites = {
      response: (_req, res) => {
        const link = res.headers.link;
        if (typeof link === "string") res.headers.link = link.replace(/.(>; rel="next")/, "$1");
      },
    };
    await caught(
      throughProxy(cut, (run) => issuedCursors(run, paged)),
      /page 2: expected a 2xx, got 400/,
    );
  });

  it("forged and moved cursors refused: a proxy answers a refused cursor with an empty page", async () => {
    const silence: Rewrites = {
      response: (req, res) => {
        if (res.status !== 400 || !req.url.includes(`${paged.pagination?.cursorParameter}=`))
          return;
        res.status = 200;
        res.body = Buffer.from("[]");
      },
    };
    await caught(
      throughProxy(silence, (run) => forgedCursors(run, paged)),
      /expected 400 \w+, got 200/,
    );
  });

  it("documented statuses under faults: a proxy drops Retry-After from the 429", async () => {
    const drop: Rewrites = {
      response: (_req, res) => {
        if (res.status === 429) delete res.headers["retry-after"];
      },
    };
    await caught(
      throughProxy(drop, (run) => faultStatuses(run, first, faults.targets)),
      /header Retry-After is missing/,
    );
  });
});
