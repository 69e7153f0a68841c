/**
 * The documented statuses a healthy server with a roomy key never sends, provoked for every
 * operation by injecting their cause, each derived from the contract: 429 with a key of its
 * custom plan allowed one request; 410 with the clock at a deprecated operation's `x-sunset` (and
 * not a millisecond before); 500 and 503 with a store that throws an unexpected error or cannot
 * reach its database; 413 one byte over `x-request-body-limit-bytes` (and not at it) and 415 for
 * a body that is not JSON, for every operation with a body. Each answer is held to the contract
 * like every other, so a status the operation does not document fails here.
 */
import { baseParts } from "../boundary-cases.js";
import type { CheckResult } from "../fuzz-coverage.js";
import { acceptedStatuses, exchange, type FuzzRun, type FuzzTarget } from "../fuzz-exchange.js";
import { must, runCases, type Trail } from "../fuzz-run.js";
import { jsonBody, type RawRequest } from "../http-client.js";
import { assemble, onTheWire } from "../request-parts.js";
import type { OperationSpec } from "../spec.js";

/** The check class name, as the report shows it. */
export const FAULT_STATUSES = "documented statuses under faults";

/** The servers and switches the faults need. */
export interface FaultTargets {
  /** A key of the contract's custom plan allowed one request a minute and a day, on the run's target. */
  limitedKey(): Promise<string>;
  /** A server whose clock the check sets (null: the real time). */
  timeTravel: { target: FuzzTarget; setClock(ms: number | null): void };
  /** A server whose store fails as switched. */
  failingStore: { target: FuzzTarget; set(mode: "none" | "unexpected" | "unavailable"): void };
}

interface FaultCase {
  label: string;
  run(trail: Trail): Promise<void>;
}

/** Provokes every fault status that applies to `op` and checks each answer. */
export async function faultStatuses(
  run: FuzzRun,
  op: OperationSpec,
  faults: FaultTargets,
): Promise<CheckResult> {
  const example = onTheWire(run.contract.basePath, assemble(op, baseParts(op, run.contract.doc)));
  const accepted = acceptedStatuses(op);
  const on =
    (target: FuzzTarget, request: RawRequest, key = target.key) =>
    (trail: Trail) =>
      exchange({ ...run, target }, trail, {
        op,
        check: FAULT_STATUSES,
        request: { ...request, headers: { ...request.headers, authorization: `Bearer ${key}` } },
      });
  const expect = async (
    answer: Promise<{ status: number; bodyText: string }>,
    status: number,
    code: string,
  ) => {
    const res = await answer;
    must(res.status === status, `expected ${status}, got ${res.status}`);
    must(jsonBody<{ code: string }>(res as never).code === code, `the code is not ${code}`);
  };
  const cases: FaultCase[] = [
    {
      label: "429: a key allowed one request sends two",
      run: async (trail) => {
        const key = await faults.limitedKey();
        const first = await on(run.target, example, key)(trail);
        must(accepted.includes(first.status), `the first request got ${first.status}`);
        await expect(on(run.target, example, key)(trail), 429, "rate_limited");
      },
    },
    ...(["unexpected", "unavailable"] as const).map((mode) => ({
      label: `${mode === "unexpected" ? 500 : 503}: the store ${mode === "unexpected" ? "throws" : "cannot reach its database"}`,
      run: async (trail: Trail) => {
        faults.failingStore.set(mode);
        try {
          const answer = on(faults.failingStore.target, example)(trail);
          await (mode === "unexpected"
            ? expect(answer, 500, "internal_error")
            : expect(answer, 503, "service_unavailable"));
        } finally {
          faults.failingStore.set("none");
        }
      },
    })),
  ];
  const sunset = op.deprecation?.sunset?.getTime();
  if (sunset !== undefined) {
    cases.push({
      label: `410: the clock at ${op.operationId}'s x-sunset, and not a millisecond before`,
      run: async (trail) => {
        const { target, setClock } = faults.timeTravel;
        try {
          setClock(sunset - 1);
          const before = await on(target, example)(trail);
          must(
            accepted.includes(before.status),
            `a millisecond before the sunset: ${before.status}`,
          );
          setClock(sunset);
          await expect(on(target, example)(trail), 410, "gone");
        } finally {
          setClock(null);
        }
      },
    });
  }
  if (op.requestBody && example.body !== undefined) {
    const limit = run.contract.bodyLimitBytes;
    const padded = (bytes: number) =>
      `${example.body}${" ".repeat(bytes - Buffer.byteLength(String(example.body)))}`;
    cases.push(
      {
        label: `413: a body one byte over ${limit} bytes, and one at it`,
        run: async (trail) => {
          const at = await on(run.target, { ...example, body: padded(limit) })(trail);
          must(accepted.includes(at.status), `a body of exactly ${limit} bytes got ${at.status}`);
          await expect(
            on(run.target, { ...example, body: padded(limit + 1) })(trail),
            413,
            "payload_too_large",
          );
        },
      },
      {
        label: "415: the example body as text/plain",
        run: (trail) =>
          expect(
            on(run.target, { ...example, headers: { "content-type": "text/plain" } })(trail),
            415,
            "unsupported_media_type",
          ),
      },
    );
  }
  await runCases(`${FAULT_STATUSES}, ${op.operationId}`, cases, (c, trail) => c.run(trail));
  return { applied: true, note: cases.map((c) => c.label.slice(0, 3)).join(", ") };
}
