import { fileURLToPath } from "node:url";
import type { ScratchServer } from "@animal-store/openapi-engine/testing";
import type { Store } from "@animal-store/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  NEGATIVE_DATA,
  negativeDataRejection,
  POSITIVE_DATA,
  positiveDataAcceptance,
} from "../src/checks/data-checks.js";
import { FAULT_STATUSES, faultStatuses } from "../src/checks/fault-statuses.js";
import { FORGED_CURSORS, forgedCursors } from "../src/checks/forged-cursors.js";
import { IGNORED_AUTH, ignoredAuth } from "../src/checks/ignored-auth.js";
import { ISSUED_CURSORS, issuedCursors } from "../src/checks/issued-cursors.js";
import {
  MISSING_HEADER,
  missingRequiredHeader,
  requiredHeaders,
} from "../src/checks/missing-header.js";
import {
  RESOURCE_AVAILABILITY,
  resourceAvailability,
} from "../src/checks/resource-availability.js";
import { responseConformanceSummary } from "../src/checks/response-conformance.js";
import { UNSUPPORTED_METHOD, unsupportedMethod } from "../src/checks/unsupported-method.js";
import { renderCoverage, writeCoverage } from "../src/coverage-report.js";
import { startFaultTargets, startFuzzServer } from "../src/fault-targets.js";
import { fuzzContract } from "../src/fuzz-contract.js";
import { type CheckResult, CoverageLedger } from "../src/fuzz-coverage.js";
import { exchange, type FuzzRun, RESPONSE_CONFORMANCE } from "../src/fuzz-exchange.js";
import { fuzzSettings } from "../src/fuzz-run.js";
import { contractEdges, hostileCases } from "../src/hostile-requests.js";
import { jsonBody } from "../src/http-client.js";
import type { OperationSpec } from "../src/spec.js";

const COVERAGE_JSON = fileURLToPath(new URL("../coverage/fuzz-coverage.json", import.meta.url));

const settings = fuzzSettings();
const contract = fuzzContract();
const ledger = new CoverageLedger(contract);

let main: ScratchServer<Store>;
let faults: Awaited<ReturnType<typeof startFaultTargets>>;
let run: FuzzRun;

beforeAll(async () => {
  console.log(`fuzzing with FUZZ_SEED=${settings.seed} FUZZ_RUNS=${settings.runs}`);
  main = await startFuzzServer(contract);
  faults = await startFaultTargets(main, contract);
  run = {
    contract,
    target: { origin: main.url, key: main.key, forwardedFor: true },
    settings,
    ledger,
  };
});

afterAll(async () => {
  await Promise.allSettled([main?.close(), faults?.close()]);
});

/** A check class, and the operations the contract says it applies to. */
interface CheckClass {
  name: string;
  check(run: FuzzRun, op: OperationSpec): Promise<CheckResult>;
  appliesTo(op: OperationSpec): boolean;
}

const always = () => true;
const CHECK_CLASSES: CheckClass[] = [
  {
    name: NEGATIVE_DATA,
    check: negativeDataRejection,
    // An operation that takes nothing is still refused a query parameter it does not take.
    appliesTo: (op) =>
      op.parameters.length > 0 || op.requestBody !== null || !op.path.includes("{"),
  },
  { name: POSITIVE_DATA, check: positiveDataAcceptance, appliesTo: always },
  {
    name: MISSING_HEADER,
    check: missingRequiredHeader,
    appliesTo: (op) => requiredHeaders(op).length > 0,
  },
  { name: UNSUPPORTED_METHOD, check: unsupportedMethod, appliesTo: always },
  { name: IGNORED_AUTH, check: ignoredAuth, appliesTo: always },
  {
    name: RESOURCE_AVAILABILITY,
    check: resourceAvailability,
    appliesTo: (op) => op.links.some((l) => /^2/.test(l.status)),
  },
  {
    name: FAULT_STATUSES,
    check: (r, op) => faultStatuses(r, op, faults.targets),
    appliesTo: always,
  },
  { name: ISSUED_CURSORS, check: issuedCursors, appliesTo: (op) => op.pagination !== undefined },
  { name: FORGED_CURSORS, check: forgedCursors, appliesTo: (op) => op.pagination !== undefined },
];

describe("Schemathesis's check classes, for every operation (SQLite, in-process server)", () => {
  for (const { name, check, appliesTo } of CHECK_CLASSES) {
    describe(name, () => {
      for (const op of contract.operations) {
        it(op.operationId, async () => {
          const result = await check(run, op);
          ledger.recordCheck(name, op, result);
          expect(result.applied, result.note).toBe(appliesTo(op));
        });
      }
    });
  }

  // Last: it reads what every check above recorded.
  describe(RESPONSE_CONFORMANCE, () => {
    for (const op of contract.operations) {
      it(op.operationId, () => {
        const result = responseConformanceSummary(run, op);
        ledger.recordCheck(RESPONSE_CONFORMANCE, op, result);
        expect(result.applied).toBe(true);
      });
    }
  });
});

describe("hostile requests", () => {
  for (const hostile of hostileCases(contractEdges(contract))) {
    it(hostile.name, async () => {
      const op = hostile.operationId ? contract.byId(hostile.operationId) : null;
      const headers = { ...hostile.request.headers, authorization: `Bearer ${run.target.key}` };
      const request = { ...hostile.request, headers };
      // exchange holds the answer to the contract: documented for the operation, or the Error body.
      const res = await exchange(run, [], {
        op,
        check: "hostile requests",
        request,
        outside: hostile.name,
      });
      const what = `${hostile.name}: ${res.status} ${res.bodyText.slice(0, 200)}`;
      expect(res.status, what).toBeLessThan(500);
      if (hostile.expect !== "documented") {
        expect(res.status, what).toBe(hostile.expect.status);
        const body = jsonBody<{ code: string; status: number; name?: string }>(res);
        if (res.status >= 400) expect(body.status).toBe(res.status);
        else expect(JSON.parse(String(hostile.request.body))).toEqual({ ...body, id: undefined });
        if (hostile.expect.code) expect(body.code, what).toBe(hostile.expect.code);
      }
    });
  }

  it("left no prototype polluted in the server's process", () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});

describe("fuzz coverage", () => {
  it("exercised every documented status of every operation (report printed and written)", () => {
    const report = ledger.report();
    console.log(renderCoverage(report, settings));
    writeCoverage(COVERAGE_JSON, report, settings);
    console.log(`written to ${COVERAGE_JSON}`);
    expect(report.summary.missingStatuses).toEqual([]);
  });
});
