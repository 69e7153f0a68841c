// The stateful mock (`pnpm mock --stateful`) under bad input: a subset of the fuzz suite's checks
// run against it (negative data rejection, positive data acceptance, unsupported method; fewer
// runs than on the server: it is the same engine), and every hostile request of the suite's table
// sent to the mock and to the real server, whose answers must agree: the same status and `Error`
// body (a created pet's id aside, the two hold different data). The mock must still answer after
// all of it: a crash would lose its data.
import { startStatefulMock } from "@animal-store/mock/src/stateful/stateful-mock.mjs";
import type { ScratchServer } from "@animal-store/openapi-engine/testing";
import type { Store } from "@animal-store/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  NEGATIVE_DATA,
  negativeDataRejection,
  POSITIVE_DATA,
  positiveDataAcceptance,
} from "../src/checks/data-checks.js";
import { UNSUPPORTED_METHOD, unsupportedMethod } from "../src/checks/unsupported-method.js";
import { startFuzzServer, UNREACHED_LIMITS } from "../src/fault-targets.js";
import { fuzzContract } from "../src/fuzz-contract.js";
import { CoverageLedger } from "../src/fuzz-coverage.js";
import type { FuzzRun } from "../src/fuzz-exchange.js";
import { fuzzSettings } from "../src/fuzz-run.js";
import { contractEdges, hostileCases } from "../src/hostile-requests.js";
import { type RawResponse, send } from "../src/http-client.js";
import type { OperationSpec } from "../src/spec.js";

const contract = fuzzContract();
const settings = fuzzSettings();
const MOCK_KEY = "any-well-formed-key";

let mock: Awaited<ReturnType<typeof startStatefulMock>>;
let server: ScratchServer<Store>;
let run: FuzzRun;

beforeAll(async () => {
  [mock, server] = await Promise.all([
    // Its keys on the custom plan with limits no run reaches, as the fuzzed server's key.
    startStatefulMock({
      host: "127.0.0.1",
      port: 0,
      stateful: true,
      dynamic: false,
      logLevel: "silent",
      plan: contract.customPlan,
      ...UNREACHED_LIMITS,
    }),
    startFuzzServer(contract, { name: "fuzz-vs-mock" }),
  ]);
  run = {
    contract,
    target: { origin: mock.origin, key: MOCK_KEY, forwardedFor: false },
    settings: { ...settings, runs: Math.max(1, Math.floor(settings.runs / 4)) },
    ledger: new CoverageLedger(contract),
  };
});

afterAll(async () => {
  await Promise.allSettled([mock?.close(), server?.close()]);
});

describe("the stateful mock under the fuzz suite's checks", () => {
  // A failing check throws its minimal request; each says whether it applied, as on the server.
  // An operation that takes nothing is still refused a query parameter it does not take.
  const refusesSomething = (op: OperationSpec) =>
    op.parameters.length > 0 || op.requestBody !== null || !op.path.includes("{");
  const checks = [
    [NEGATIVE_DATA, negativeDataRejection, refusesSomething],
    [POSITIVE_DATA, positiveDataAcceptance, () => true],
    [UNSUPPORTED_METHOD, unsupportedMethod, () => true],
  ] as const;
  for (const [name, check, appliesTo] of checks) {
    describe(name, () => {
      for (const op of contract.operations) {
        it(op.operationId, async () => {
          const result = await check(run, op);
          expect(result.applied, result.note).toBe(appliesTo(op));
        });
      }
    });
  }
});

/** Status and body of an answer, a created resource's id left out. */
function comparable(res: RawResponse) {
  let body: unknown = res.bodyText;
  try {
    body = JSON.parse(res.bodyText);
  } catch {}
  if (res.status === 201 && typeof body === "object" && body !== null) {
    body = { ...body, id: undefined };
  }
  return { status: res.status, body, type: res.headers.get("content-type") };
}

describe("hostile requests: the stateful mock answers as the server", () => {
  for (const hostile of hostileCases(contractEdges(contract))) {
    it(hostile.name, async () => {
      const as = (key: string) => ({
        ...hostile.request,
        headers: { ...hostile.request.headers, authorization: `Bearer ${key}` },
      });
      const [fromMock, fromServer] = await Promise.all([
        send(mock.origin, as(MOCK_KEY)),
        send(server.url, as(server.key)),
      ]);
      expect(fromMock.status, hostile.name).toBeLessThan(500);
      expect(comparable(fromMock)).toEqual(comparable(fromServer));
    });
  }

  it("still answers afterwards, its seed intact", async () => {
    const res = await send(mock.origin, {
      method: "GET",
      target: `${contract.basePath}/pets?limit=1`,
      headers: { authorization: `Bearer ${MOCK_KEY}` },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.bodyText)).toHaveLength(1);
  });
});
