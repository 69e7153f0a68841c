/**
 * Schemathesis's "ignored auth": an operation whose `security` requires a credential refuses a
 * request without one (401 `unauthorized`) and one with a key it does not know (401
 * `invalid_api_key`), each with the bearer challenge of the scheme's `x-realm`; an operation
 * whose `security` lets a call go without a credential accepts it without one.
 */
import fc from "fast-check";
import type { CheckResult } from "../fuzz-coverage.js";
import { acceptedStatuses, exchange, type FuzzRun } from "../fuzz-exchange.js";
import { must, runProperty } from "../fuzz-run.js";
import { jsonBody } from "../http-client.js";
import { validRequest } from "../request-generator.js";
import { onTheWire } from "../request-parts.js";
import type { OperationSpec } from "../spec.js";

/** The check class name, as the report shows it. */
export const IGNORED_AUTH = "ignored auth";

const credentials = fc.oneof(
  fc.constant({ header: null, code: "unauthorized" }),
  fc
    .constantFrom("Basic dXNlcjpwYXNz", "Token abc")
    .map((h) => ({ header: h, code: "unauthorized" })),
  fc
    .stringMatching(/^[A-Za-z0-9._~+/-]{1,60}$/)
    .map((token) => ({ header: `Bearer ${token}`, code: "invalid_api_key" })),
  fc
    .stringMatching(/^[A-Za-z0-9_-]{32}$/)
    .map((token) => ({ header: `Bearer ask_${token}`, code: "invalid_api_key" })),
);

let addressCount = 0;

/**
 * A new client address for each request (10.0.0.1, 10.0.0.2, ...), so the anonymous plan's
 * per-address limit never decides an answer however many runs there are.
 */
function nextAddress(): string {
  addressCount++;
  return `10.${(addressCount >> 16) & 255}.${(addressCount >> 8) & 255}.${addressCount & 255}`;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Requests without a valid credential are refused where one is required, accepted elsewhere. */
export async function ignoredAuth(run: FuzzRun, op: OperationSpec): Promise<CheckResult> {
  const { contract, target, settings } = run;
  // Without X-Forwarded-For every keyless request counts against one address's window.
  const budget = Math.max(
    1,
    Math.floor(contract.anonymousPlan.perMinute / (2 * contract.operations.length)) - 1,
  );
  const runs = target.forwardedFor ? settings.runs : Math.min(settings.runs, budget);
  const from = (): Record<string, string> =>
    target.forwardedFor ? { "x-forwarded-for": nextAddress() } : {};
  const title = `${IGNORED_AUTH}, ${op.operationId}`;
  const valid = validRequest(op, contract.doc);
  if (op.anonymous) {
    const accepted = acceptedStatuses(op);
    const n = await runProperty(
      title,
      valid,
      async (req, trail) => {
        const request = onTheWire(contract.basePath, req, from());
        const res = await exchange(run, trail, { op, check: IGNORED_AUTH, request });
        must(
          accepted.includes(res.status),
          `security lets this call go without a key, yet it got ${res.status}`,
        );
      },
      settings,
      runs,
    );
    return {
      applied: true,
      note: `${n} calls without a credential accepted (security allows them)`,
    };
  }
  const realms = contract.realmsOf(op);
  const n = await runProperty(
    title,
    fc.tuple(valid, credentials),
    async ([req, cred], trail) => {
      const auth: Record<string, string> =
        cred.header === null ? {} : { authorization: cred.header };
      const request = onTheWire(contract.basePath, req, { ...auth, ...from() });
      const res = await exchange(run, trail, { op, check: IGNORED_AUTH, request });
      must(
        res.status === 401,
        `${cred.header ?? "no credential"}: expected 401, got ${res.status}`,
      );
      must(jsonBody<{ code: string }>(res).code === cred.code, `the code is not ${cred.code}`);
      const challenge = res.headers.get("www-authenticate") ?? "";
      const ok = realms.some((realm) =>
        new RegExp(
          `^Bearer(\\s|$)${realm === null ? "" : `.*realm="${escaped(realm)}"`}`,
          "i",
        ).test(challenge),
      );
      must(
        ok,
        `WWW-Authenticate "${challenge}" is not the bearer challenge of realm ${realms.join(" or ")}`,
      );
      if (cred.code === "invalid_api_key") {
        must(
          /error="invalid_token"/.test(challenge),
          `WWW-Authenticate "${challenge}" lacks error="invalid_token"`,
        );
      }
    },
    settings,
    runs,
  );
  return { applied: true, note: `${n} calls without a valid credential refused` };
}
