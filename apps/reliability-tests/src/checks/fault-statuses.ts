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
import { jsonBody, type RawRequest, type RawResponse } from "../http-client.js";
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

/** `res` is the refusal `status` with the error `code`. */
function refused(res: RawResponse, status: number, code: string): void {
  must(res.status === status, `expected ${status}, got ${res.status}`);
  must(jsonBody<{ code: string }>(res).code === code, `the code is not ${code}`);
}

/** Provokes every fault status that applies to `op` and checks each answer. */
export async function faultStatuses(
  run: FuzzRun,
  op: OperationSpec,
  faults: FaultTargets,
): Promise<CheckResult> {
  const example = onTheWire(run.contract.basePath, assemble(op, baseParts(op, run.contract.doc)));
  const accepted = acceptedStatuses(op);
  const send = (trail: Trail, target: FuzzTarget, request: RawRequest, key = target.key) => {
    const headers = { ...request.headers, authorization: `Bearer ${key}` };
    return exchange({ ...run, target }, trail, {
      op,
      check: FAULT_STATUSES,
      request: { ...request, headers },
    });
  };
  const storeFailure = (mode: "unexpected" | "unavailable", status: number, code: string) => ({
    label: `${status}: the store ${mode === "unexpected" ? "throws" : "cannot reach its database"}`,
    run: async (trail: Trail) => {
      faults.failingStore.set(mode);
      try {
        refused(await send(trail, faults.failingStore.target, example), status, code);
      } finally {
        faults.failingStore.set("none");
      }
    },
  });
  const cases: FaultCase[] = [
    {
      label: "429: a key allowed one request sends two",
      run: async (trail) => {
        const key = await faults.limitedKey();
        const first = await send(trail, run.target, example, key);
        must(accepted.includes(first.status), `the first request got ${first.status}`);
        refused(await send(trail, run.target, example, key), 429, "rate_limited");
      },
    },
    storeFailure("unexpected", 500, "internal_error"),
    storeFailure("unavailable", 503, "service_unavailable"),
  ];
  const sunset = op.deprecation?.sunset?.getTime();
  if (sunset !== undefined) {
    cases.push({
      label: `410: the clock at ${op.operationId}'s x-sunset, and not a millisecond before`,
      run: async (trail) => {
        const { target, setClock } = faults.timeTravel;
        try {
          setClock(sunset - 1);
          const before = await send(trail, target, example);
          must(accepted.includes(before.status), `1 ms before the sunset: ${before.status}`);
          setClock(sunset);
          refused(await send(trail, target, example), 410, "gone");
        } finally {
          setClock(null);
        }
      },
    });
  }
  if (op.requestBody && example.body !== undefined) {
    const limit = run.contract.bodyLimitBytes;
    const text = String(example.body);
    // Whitespace after the JSON value: the same body, exactly as many bytes as wanted.
    const padded = (bytes: number) => `${text}${" ".repeat(bytes - Buffer.byteLength(text))}`;
    cases.push(
      {
        label: `413: a body one byte over ${limit} bytes, and one at it`,
        run: async (trail) => {
          const at = await send(trail, run.target, { ...example, body: padded(limit) });
          must(accepted.includes(at.status), `a body of exactly ${limit} bytes got ${at.status}`);
          const over = await send(trail, run.target, { ...example, body: padded(limit + 1) });
          refused(over, 413, "payload_too_large");
        },
      },
      {
        label: "415: the example body as text/plain",
        run: async (trail) => {
          const plain = { ...example, headers: { "content-type": "text/plain" } };
          refused(await send(trail, run.target, plain), 415, "unsupported_media_type");
        },
      },
    );
  }
  await runCases(`${FAULT_STATUSES}, ${op.operationId}`, cases, (c, trail) => c.run(trail));
  return { applied: true, note: cases.map((c) => c.label.slice(0, 3)).join(", ") };
}
