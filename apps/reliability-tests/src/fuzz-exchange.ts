/**
 * Every request of every check goes through `exchange`: it is sent (bounded in time), its answer
 * is held to the contract ("response headers conformance": the documented status, every required
 * header valid against its schema, a documented content type and a body valid against its
 * schema; answers outside any operation get the headers and error body every answer carries),
 * and the coverage ledger is told which status it was and which keywords the request exercised.
 */
import type { FuzzContract } from "./fuzz-contract.js";
import type { CoverageLedger } from "./fuzz-coverage.js";
import { type FuzzSettings, must, type Trail } from "./fuzz-run.js";
import { type RawRequest, type RawResponse, send } from "./http-client.js";
import { analyseRequest } from "./request-analysis.js";
import type { OperationSpec } from "./spec.js";
import { documentedKey } from "./spec-validator.js";

/** The server a run checks. */
export interface FuzzTarget {
  /** Its origin, e.g. http://127.0.0.1:41234 (the API is under the contract's base path). */
  origin: string;
  /** A valid key whose limits the run never reaches. */
  key: string;
  /**
   * Whether the server takes the client address from `X-Forwarded-For` (TRUST_PROXY): keyless
   * requests then come from many addresses, so the anonymous plan's limit never decides them.
   */
  forwardedFor: boolean;
}

/** Everything a check needs. */
export interface FuzzRun {
  contract: FuzzContract;
  target: FuzzTarget;
  settings: FuzzSettings;
  ledger: CoverageLedger;
}

/** The name of the check class every exchange applies. */
export const RESPONSE_CONFORMANCE = "response headers conformance";

/** What a schema-valid request of `op` may get: a documented 2xx, or its 404 when it reads by path. */
export function acceptedStatuses(op: OperationSpec): number[] {
  const statuses = Object.keys(op.responses);
  const success = statuses.filter((s) => /^2\d\d$/.test(s)).map(Number);
  const byPath = op.parameters.some((p) => p.in === "path") && statuses.includes("404");
  return byPath ? [...success, 404] : success;
}

/** The bearer header of the run's key. */
export function withKey(run: FuzzRun): Record<string, string> {
  return { authorization: `Bearer ${run.target.key}` };
}

function conformanceProblems(
  run: FuzzRun,
  op: OperationSpec | null,
  req: RawRequest,
  res: RawResponse,
) {
  const { validator, commonHeaders, errorSchema, errorMediaTypes } = run.contract;
  if (op) return validator.checkResponse(op, res, req.method);
  const problems = validator.headerProblems(commonHeaders, res);
  if (res.status >= 400 && req.method !== "HEAD") {
    problems.push(...validator.bodyProblems(errorSchema, errorMediaTypes, res));
  }
  return problems;
}

function record(run: FuzzRun, op: OperationSpec, check: string, req: RawRequest, res: RawResponse) {
  const documented = documentedKey(op, res.status);
  if (documented === undefined) return;
  const headers = Object.keys(op.responses[documented]?.headers ?? {}).filter(
    (name) => res.headers.get(name) !== null,
  );
  run.ledger.recordResponse(op, documented, check, headers);
  const { basePath, doc, validator } = run.contract;
  if (!req.target.startsWith(basePath)) return;
  const relative = { ...req, target: req.target.slice(basePath.length) };
  const analysis = analyseRequest(op, doc, validator, relative);
  if (!analysis) return;
  const answer =
    res.status === 400
      ? "refused"
      : acceptedStatuses(op).includes(res.status)
        ? "accepted"
        : "other";
  run.ledger.credit(op, analysis, answer);
}

/**
 * Sends `request` (target including the base path) for `check`, as a request of `op` (null for
 * one outside every operation, `outside` naming it in the report); fails on any conformance
 * problem; returns the answer.
 */
export async function exchange(
  run: FuzzRun,
  trail: Trail,
  what: { op: OperationSpec | null; check: string; request: RawRequest; outside?: string },
): Promise<RawResponse> {
  const { op, check, request } = what;
  let response: RawResponse;
  try {
    response = await send(run.target.origin, request);
  } catch (err) {
    trail.push({ request, response: null, error: (err as Error).message });
    throw err;
  }
  trail.push({ request, response });
  const problems = conformanceProblems(run, op, request, response);
  must(problems.length === 0, `${RESPONSE_CONFORMANCE}: ${problems.join("; ")}`);
  if (op) record(run, op, check, request, response);
  else run.ledger.recordOutside(`${what.outside ?? request.method} → ${response.status}`);
  return response;
}
