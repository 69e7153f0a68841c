/**
 * "Issued cursors followed", for an operation that pages (`x-pagination`): its cursor is made by
 * the server only, so positive cursors are the ones its `next` links carry. From a generated
 * first page, every `Link: <...>; rel="next"` is followed as it is (resolved against the page's
 * URL) with the page size drawn anew for each page (it may change); each page must be a
 * documented 2xx no larger than its page size, and nothing may come twice.
 */
import fc from "fast-check";
import type { CheckResult } from "../fuzz-coverage.js";
import { acceptedStatuses, exchange, type FuzzRun, withKey } from "../fuzz-exchange.js";
import { must, runProperty, type Trail } from "../fuzz-run.js";
import { jsonBody } from "../http-client.js";
import { nextTarget, queryOf, targetOf, withQuery } from "../next-links.js";
import { validParamText } from "../param-strings.js";
import { validParts, validRequest } from "../request-generator.js";
import { onTheWire, type Parts } from "../request-parts.js";
import { resolveSchema } from "../schema-arbitrary.js";
import type { OperationSpec } from "../spec.js";

/** The check class name, as the report shows it. */
export const ISSUED_CURSORS = "issued cursors followed";

const MAX_PAGES = 6;
/** Resources created through the list's own create operation first, so next links exist. */
const SEEDED = 30;

/** Sends a GET of `target` (relative to the base path) as a request of `op`. */
export function sendTarget(
  run: FuzzRun,
  op: OperationSpec,
  check: string,
  target: string,
  trail: Trail,
) {
  const request = { method: op.method, target, headers: {}, broken: "" };
  return exchange(run, trail, {
    op,
    check,
    request: onTheWire(run.contract.basePath, request, withKey(run)),
  });
}

/** Page sizes to draw: any the schema allows, often near its minimum so lists span pages. */
function pageSizes(run: FuzzRun, op: OperationSpec, name: string): fc.Arbitrary<string> {
  const param = op.parameters.find((p) => p.name === name);
  must(param, `${op.operationId} has no parameter ${name}`);
  const schema = resolveSchema(param.schema, run.contract.doc);
  const any = validParamText(param.schema, run.contract.doc);
  if (typeof schema.minimum !== "number") return any;
  const low = fc.integer({ min: schema.minimum, max: schema.minimum + 3 }).map(String);
  return fc.oneof({ arbitrary: low, weight: 3 }, { arbitrary: any, weight: 1 });
}

/** Creates resources through the create operation on the list's own path (when there is one). */
async function seed(run: FuzzRun, op: OperationSpec): Promise<void> {
  const create = run.contract.operations.find((o) => o.path === op.path && o.method === "POST");
  if (!create) return;
  const requests = fc.sample(validRequest(create, run.contract.doc), { seed: 22, numRuns: SEEDED });
  for (const req of requests) {
    const request = onTheWire(run.contract.basePath, req, withKey(run));
    await exchange(run, [], { op: create, check: ISSUED_CURSORS, request });
  }
}

/** Walks from a generated first page along next links, the page size drawn anew for each. */
async function walk(
  run: FuzzRun,
  op: OperationSpec,
  [parts, sizes]: [Parts, string[]],
  trail: Trail,
) {
  const { pageSizeParameter } = op.pagination as { pageSizeParameter: string };
  const seen = new Set<string>();
  let target: string | undefined = targetOf(op, parts);
  for (let n = 0; target !== undefined && n < MAX_PAGES; n++) {
    if (n > 0) {
      const query = queryOf(target).filter(([k]) => k !== pageSizeParameter);
      target = withQuery(target, [...query, [pageSizeParameter, sizes[n] as string]]);
    }
    const res = await sendTarget(run, op, ISSUED_CURSORS, target, trail);
    const page = `page ${n + 1}`;
    must(acceptedStatuses(op).includes(res.status), `${page}: expected a 2xx, got ${res.status}`);
    const items = jsonBody<unknown[]>(res);
    const size = queryOf(target).find(([k]) => k === pageSizeParameter)?.[1];
    if (size !== undefined) {
      must(items.length <= Number(size), `${page} holds ${items.length} items, more than ${size}`);
    }
    for (const item of items) {
      const text = JSON.stringify(item);
      must(!seen.has(text), `${page} repeats ${text} from an earlier page`);
      seen.add(text);
    }
    target = nextTarget(run.contract.basePath, res, target);
  }
}

/** Following every issued next link: documented answers, sized pages, nothing twice. */
export async function issuedCursors(run: FuzzRun, op: OperationSpec): Promise<CheckResult> {
  if (!op.pagination) return { applied: false, note: "does not page" };
  await seed(run, op);
  const sizes = fc.array(pageSizes(run, op, op.pagination.pageSizeParameter), {
    minLength: MAX_PAGES,
    maxLength: MAX_PAGES,
  });
  const runs = await runProperty(
    `${ISSUED_CURSORS}, ${op.operationId}`,
    fc.tuple(validParts(op, run.contract.doc), sizes),
    (value, trail) => walk(run, op, value, trail),
    run.settings,
    Math.max(10, Math.floor(run.settings.runs / 4)),
  );
  return { applied: true, note: `${runs} walks of up to ${MAX_PAGES} pages` };
}
