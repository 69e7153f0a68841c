/**
 * Schemathesis's "unsupported method", with what the contract's "HTTP methods" section promises
 * around it: every method a path does not declare gets 405 `method_not_allowed` and an `Allow`
 * listing exactly the path's operations' methods, HEAD where there is a GET, and OPTIONS; OPTIONS
 * gets 204 with that `Allow` and no body, without a key; HEAD answers as GET does, without a body.
 */
import { HTTP_METHODS } from "@animal-store/openapi";
import type { CheckResult } from "../fuzz-coverage.js";
import { exchange, type FuzzRun, withKey } from "../fuzz-exchange.js";
import { must, runProperty, type Trail } from "../fuzz-run.js";
import { jsonBody, type RawResponse } from "../http-client.js";
import { validRequest } from "../request-generator.js";
import type { GeneratedRequest } from "../request-parts.js";
import type { OperationSpec } from "../spec.js";

/** The check class name, as the report shows it. */
export const UNSUPPORTED_METHOD = "unsupported method";

/** Headers that describe the request itself, so HEAD and GET may differ in them. */
const PER_REQUEST = new Set([
  "date",
  "x-request-id",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "ratelimit",
]);

function allowOf(res: RawResponse): string[] {
  return (res.headers.get("allow") ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
}

function mustAllow(res: RawResponse, expected: string[], what: string) {
  const got = allowOf(res);
  must(
    got.length === new Set(got).size && [...got].sort().join() === [...expected].sort().join(),
    `${what}: Allow is "${res.headers.get("allow")}", the contract's methods for this path are ${expected.join(", ")}`,
  );
}

async function headLikeGet(run: FuzzRun, get: OperationSpec, req: GeneratedRequest, trail: Trail) {
  const target = `${run.contract.basePath}${req.target}`;
  const send = (method: string) =>
    exchange(run, trail, {
      op: get,
      check: UNSUPPORTED_METHOD,
      request: { method, target, headers: withKey(run) },
    });
  const full = await send("GET");
  const head = await send("HEAD");
  must(
    head.status === full.status,
    `HEAD answered ${head.status} where GET answered ${full.status}`,
  );
  must(head.bodyText === "", "HEAD answered with a body");
  const names = (res: RawResponse) => [...res.headers.keys()].sort().join(", ");
  must(
    names(head) === names(full),
    `HEAD's headers (${names(head)}) differ from GET's (${names(full)})`,
  );
  for (const [name, value] of full.headers) {
    if (PER_REQUEST.has(name)) continue;
    must(
      head.headers.get(name) === value,
      `HEAD's ${name} is "${head.headers.get(name)}", GET's "${value}"`,
    );
  }
}

/** Methods the path does not have get 405 with the exact Allow; OPTIONS 204; HEAD like GET. */
export async function unsupportedMethod(run: FuzzRun, op: OperationSpec): Promise<CheckResult> {
  const allow = run.contract.allowFor(op.path);
  const others = HTTP_METHODS.map((m) => m.toUpperCase()).filter((m) => !allow.includes(m));
  // A path whose own operation is OPTIONS or HEAD answers it as that operation says.
  const declares = (method: string) =>
    run.contract.operations.some((o) => o.path === op.path && o.method === method);
  const options = !declares("OPTIONS");
  const head = op.method === "GET" && !declares("HEAD");
  const runs = await runProperty(
    `${UNSUPPORTED_METHOD}, ${op.operationId}`,
    validRequest(op, run.contract.doc),
    async (req, trail) => {
      const target = `${run.contract.basePath}${req.target}`;
      for (const method of others) {
        const request = { method, target, headers: withKey(run) };
        const res = await exchange(run, trail, {
          op: null,
          check: UNSUPPORTED_METHOD,
          request,
          outside: `${method} ${op.path}`,
        });
        must(res.status === 405, `${method} ${op.path}: expected 405, got ${res.status}`);
        must(
          jsonBody<{ code: string }>(res).code === "method_not_allowed",
          "the code is not method_not_allowed",
        );
        mustAllow(res, allow, `${method} ${op.path}`);
      }
      if (options) {
        const request = { method: "OPTIONS", target, headers: {} };
        const outside = `OPTIONS ${op.path}`;
        const res = await exchange(run, trail, {
          op: null,
          check: UNSUPPORTED_METHOD,
          request,
          outside,
        });
        must(
          res.status === 204 && res.bodyText === "",
          `OPTIONS without a key: expected 204 without a body, got ${res.status}`,
        );
        mustAllow(res, allow, outside);
      }
      if (head) await headLikeGet(run, op, req, trail);
    },
    run.settings,
    Math.max(3, Math.ceil(run.settings.runs / 10)),
  );
  return {
    applied: true,
    note: `${runs} targets: ${others.join(", ")} → 405${options ? "; OPTIONS → 204" : ""}${head ? "; HEAD as GET" : ""}`,
  };
}
