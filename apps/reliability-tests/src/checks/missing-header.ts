/**
 * Schemathesis's "missing required header": for each header parameter an operation marks
 * required, an otherwise valid request without it is refused with 400 (a documented 4xx). An
 * operation without such a parameter is reported as one the check did not apply to.
 */
import fc from "fast-check";
import type { CheckResult } from "../fuzz-coverage.js";
import { exchange, type FuzzRun, withKey } from "../fuzz-exchange.js";
import { must, runProperty } from "../fuzz-run.js";
import { validRequest } from "../request-generator.js";
import { onTheWire } from "../request-parts.js";
import type { OperationSpec } from "../spec.js";

/** The check class name, as the report shows it. */
export const MISSING_HEADER = "missing required header";

/** The header parameters `op` requires. */
export function requiredHeaders(op: OperationSpec): string[] {
  return op.parameters.filter((p) => p.in === "header" && p.required).map((p) => p.name);
}

/** Leaving out a required header parameter gets a documented 400. */
export async function missingRequiredHeader(run: FuzzRun, op: OperationSpec): Promise<CheckResult> {
  const names = requiredHeaders(op);
  if (names.length === 0) return { applied: false, note: "declares no required header parameter" };
  const cases = fc.tuple(validRequest(op, run.contract.doc), fc.constantFrom(...names));
  const runs = await runProperty(
    `${MISSING_HEADER}, ${op.operationId}`,
    cases,
    async ([req, name], trail) => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => k.toLowerCase() !== name.toLowerCase()),
      );
      const request = onTheWire(run.contract.basePath, { ...req, headers }, withKey(run));
      const res = await exchange(run, trail, { op, check: MISSING_HEADER, request });
      must(
        res.status === 400,
        `without the required header ${name}: expected 400, got ${res.status}`,
      );
    },
    run.settings,
    Math.max(names.length * 3, Math.ceil(run.settings.runs / 4)),
  );
  return { applied: true, note: `${runs} requests without one of ${names.join(", ")}` };
}
