/**
 * Schemathesis's "response headers conformance" (with its status, content-type and schema
 * conformance): `exchange` holds every answer of every check to the contract as it arrives and
 * fails the check that got it, with that request shrunk. This closes the books per operation:
 * every documented status came at least once, and each header it requires was seen and validated.
 */
import type { CheckResult } from "../fuzz-coverage.js";
import type { FuzzRun } from "../fuzz-exchange.js";
import { must } from "../fuzz-run.js";
import type { OperationSpec } from "../spec.js";

/** Every documented status of `op` was answered and every header it requires validated. */
export function responseConformanceSummary(run: FuzzRun, op: OperationSpec): CheckResult {
  const rows = run.ledger.report().statuses.filter((s) => s.operationId === op.operationId);
  const unseen = rows.filter((s) => s.responses === 0).map((s) => s.status);
  must(unseen.length === 0, `${op.operationId}: no answer with ${unseen.join(", ")} was checked`);
  const headerless = rows.filter((s) => s.headersNeverSeen.length > 0);
  must(
    headerless.length === 0,
    headerless
      .map((s) => `${s.status}: ${s.headersNeverSeen.join(", ")} never validated`)
      .join("; "),
  );
  const total = rows.reduce((n, s) => n + s.responses, 0);
  return {
    applied: true,
    note: `${total} answers over ${rows.length} statuses, every required header validated`,
  };
}
