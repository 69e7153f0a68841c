/**
 * Schemathesis's "negative data rejection" and "positive data acceptance" for one operation,
 * each in two halves: the boundary cases of every keyword of its input (deterministic, minimal
 * by construction), then requests generated from its schemas (fast-check, shrunk on failure).
 */
import { type BoundaryCase, boundaryCases } from "../boundary-cases.js";
import type { CheckResult } from "../fuzz-coverage.js";
import { acceptedStatuses, exchange, type FuzzRun, withKey } from "../fuzz-exchange.js";
import { must, runCases, runProperty, type Trail } from "../fuzz-run.js";
import { jsonBody } from "../http-client.js";
import { analyseRequest } from "../request-analysis.js";
import { invalidRequest, validRequest } from "../request-generator.js";
import { type GeneratedRequest, onTheWire } from "../request-parts.js";
import type { OperationSpec } from "../spec.js";

/** The check class names, as the report shows them. */
export const NEGATIVE_DATA = "negative data rejection";
export const POSITIVE_DATA = "positive data acceptance";

function send(run: FuzzRun, op: OperationSpec, check: string, req: GeneratedRequest, trail: Trail) {
  const request = onTheWire(run.contract.basePath, req, withKey(run));
  return exchange(run, trail, { op, check, request });
}

/** A boundary case must break (or sit on the edge of) what it says, by the spec alone. */
function sane(run: FuzzRun, op: OperationSpec, c: BoundaryCase) {
  const { doc, validator } = run.contract;
  const analysis = analyseRequest(op, doc, validator, c.request);
  const found = c.side === "beyond" ? analysis?.violated : analysis?.edges;
  must(
    found?.some((e) => e.location === c.location && e.keyword === c.keyword) &&
      (c.side === "beyond" || analysis?.violated.length === 0),
    `the boundary case "${c.label}" does not do what it says (a generator bug)`,
  );
}

/** Requests that break the operation's schemas get 400 (a documented 4xx), never 2xx or 5xx. */
export async function negativeDataRejection(run: FuzzRun, op: OperationSpec): Promise<CheckResult> {
  const title = `${NEGATIVE_DATA}, ${op.operationId}`;
  const refused = async (req: GeneratedRequest, trail: Trail) => {
    const res = await send(run, op, NEGATIVE_DATA, req, trail);
    must(
      res.status === 400,
      `${req.broken}: expected 400 (the request breaks the schema), got ${res.status}`,
    );
    must(
      jsonBody<{ code: string }>(res).code === "validation_failed",
      "the code is not validation_failed",
    );
  };
  const invalid = invalidRequest(op, run.contract.doc, run.contract.validator.validate);
  const generated = invalid ? await runProperty(title, invalid, refused, run.settings) : 0;
  const cases = boundaryCases(op, run.contract.doc).filter((c) => c.side === "beyond");
  const boundary = await runCases(title, cases, async (c, trail) => {
    sane(run, op, c);
    await refused(c.request, trail);
  });
  if (boundary + generated === 0) {
    // Nothing of its own to break (no parameter, no body): what it still refuses is a query
    // parameter it does not take (the server answers 400 to one for every operation, and the
    // spec declares that 400: spec-facts/server-statuses).
    if (op.path.includes("{") || op.requestBody) {
      return { applied: false, note: "takes no input to break" };
    }
    const unknown: GeneratedRequest = {
      method: op.method,
      target: `${op.path}?notAParameter=1`,
      headers: {},
      broken: "a query parameter the operation does not take",
    };
    await runCases(title, [{ label: unknown.broken }], (_c, trail) => refused(unknown, trail));
    return { applied: true, note: "takes no input: an unknown query parameter refused" };
  }
  return { applied: true, note: `${generated} generated, ${boundary} boundary cases` };
}

/** Schema-valid requests get a documented 2xx (or the 404 of an operation reading by path). */
export async function positiveDataAcceptance(
  run: FuzzRun,
  op: OperationSpec,
): Promise<CheckResult> {
  const title = `${POSITIVE_DATA}, ${op.operationId}`;
  const accepted = acceptedStatuses(op);
  const accept = async (req: GeneratedRequest, trail: Trail) => {
    const res = await send(run, op, POSITIVE_DATA, req, trail);
    must(
      accepted.includes(res.status),
      `expected one of ${accepted.join(", ")}, got ${res.status}`,
    );
  };
  // Generated first: a fault they find is reported shrunk, not as the boundary case that hit it.
  const generated = await runProperty(
    title,
    validRequest(op, run.contract.doc),
    accept,
    run.settings,
  );
  const cases = boundaryCases(op, run.contract.doc).filter((c) => c.side === "edge");
  const boundary = await runCases(title, cases, async (c, trail) => {
    sane(run, op, c);
    await accept(c.request, trail);
  });
  return { applied: true, note: `${generated} generated, ${boundary} boundary cases` };
}
