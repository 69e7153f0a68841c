/**
 * Schemathesis's "use after free"/"ensure resource availability", driven by the spec's OpenAPI
 * links: after a successful call, each link of its response (createPet's 201 → getPet with
 * `petId: $response.body#/id`) is followed at once and must succeed. When both answers share a
 * schema, the linked read returns exactly what the create returned; and what was created holds
 * what was sent (a property without a `default` that was not sent is not invented).
 */
import fc from "fast-check";
import type { CheckResult } from "../fuzz-coverage.js";
import { acceptedStatuses, exchange, type FuzzRun, withKey } from "../fuzz-exchange.js";
import { must, runProperty, type Trail } from "../fuzz-run.js";
import { jsonBody, type RawResponse } from "../http-client.js";
import { evaluateLinkExpression } from "../link-expressions.js";
import { paramText } from "../param-strings.js";
import { validParts } from "../request-generator.js";
import { assemble, onTheWire, type Parts } from "../request-parts.js";
import { resolveSchema } from "../schema-arbitrary.js";
import type { LinkSpec, OperationSpec } from "../spec.js";

/** The check class name, as the report shows it. */
export const RESOURCE_AVAILABILITY = "resource availability after create";

/** JSON text with object keys sorted: equality that ignores the order properties come in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** The created resource holds what was sent, and nothing without a default that was not. */
function holdsWhatWasSent(run: FuzzRun, op: OperationSpec, parts: Parts, created: unknown) {
  if (!op.requestBody || !parts.body) return;
  const schema = resolveSchema(op.requestBody.schema, run.contract.doc);
  const sent = parts.body.value as Record<string, unknown>;
  must(created !== null && typeof created === "object", `${op.operationId} answered no object`);
  const answer = created as Record<string, unknown>;
  for (const [name, sub] of Object.entries((schema.properties as Record<string, object>) ?? {})) {
    if (Object.hasOwn(sent, name)) {
      must(
        same(answer[name], sent[name]),
        `${name} was sent as ${JSON.stringify(sent[name])}, the answer has ${JSON.stringify(answer[name])}`,
      );
    } else if (!("default" in resolveSchema(sub as Record<string, unknown>, run.contract.doc))) {
      must(
        !Object.hasOwn(answer, name),
        `${name} was not sent and has no default, yet the answer has ${JSON.stringify(answer[name])}`,
      );
    }
  }
}

/** The linked operation's parts: `base`, with the link's parameters evaluated in `source`. */
function linkedParts(
  link: LinkSpec,
  target: OperationSpec,
  base: Parts,
  source: Parameters<typeof evaluateLinkExpression>[1],
): Parts {
  const parts: Parts = structuredClone(base);
  for (const [qualified, expression] of Object.entries(link.parameters)) {
    const [, where, name] = /^(?:(path|query|header)\.)?(.+)$/.exec(qualified) as unknown as [
      string,
      string | undefined,
      string,
    ];
    const param = target.parameters.find(
      (p) => p.name === name && (where === undefined || p.in === where),
    );
    if (!param)
      throw new Error(`link ${link.name}: ${target.operationId} has no parameter ${qualified}`);
    const text = paramText(evaluateLinkExpression(expression, source));
    must(text !== null, `link ${link.name}: ${String(expression)} gave no value`);
    if (param.in === "path") parts.path[name] = text;
    else if (param.in === "header") parts.headers[name] = text;
    else parts.query = [...parts.query.filter(([k]) => k !== name), [name, text]];
  }
  return parts;
}

async function followLink(
  run: FuzzRun,
  op: OperationSpec,
  link: LinkSpec,
  [parts, base]: [Parts, Parts],
  trail: Trail,
) {
  const { contract } = run;
  const target = contract.byId(link.operationId);
  const send = (o: OperationSpec, p: Parts): Promise<RawResponse> =>
    exchange(run, trail, {
      op: o,
      check: RESOURCE_AVAILABILITY,
      request: onTheWire(contract.basePath, assemble(o, p), withKey(run)),
    });
  const first = await send(op, parts);
  must(acceptedStatuses(op).includes(first.status), `${op.operationId} got ${first.status}`);
  if (String(first.status) !== link.status) return;
  const body = first.bodyText === "" ? undefined : jsonBody(first);
  holdsWhatWasSent(run, op, parts, body);
  const source = {
    method: op.method,
    url: contract.basePath + assemble(op, parts).target,
    request: parts,
    status: first.status,
    headers: first.headers,
    body,
  };
  const second = await send(target, linkedParts(link, target, base, source));
  must(
    /^2/.test(String(second.status)),
    `${link.name} → ${target.operationId} got ${second.status}: what ${op.operationId} returned is not available`,
  );
  const schemaOf = (o: OperationSpec, status: number) =>
    JSON.stringify(o.responses[String(status)]?.bodySchema);
  if (target.method === "GET" && schemaOf(op, first.status) === schemaOf(target, second.status)) {
    must(
      same(jsonBody(second), body),
      `${target.operationId} returned ${second.bodyText.slice(0, 200)}, ${op.operationId} returned ${first.bodyText.slice(0, 200)}`,
    );
  }
}

/** Every link of every successful answer of `op` leads to what it promises. */
export async function resourceAvailability(run: FuzzRun, op: OperationSpec): Promise<CheckResult> {
  const links = op.links.filter((l) => /^2/.test(l.status));
  if (links.length === 0) return { applied: false, note: "its successful answers declare no link" };
  let runs = 0;
  for (const link of links) {
    const target = run.contract.byId(link.operationId);
    const inputs = fc.tuple(validParts(op, run.contract.doc), validParts(target, run.contract.doc));
    runs += await runProperty(
      `${RESOURCE_AVAILABILITY}, ${op.operationId} → ${link.name}`,
      inputs,
      (value, trail) => followLink(run, op, link, value, trail),
      run.settings,
    );
  }
  return {
    applied: true,
    note: `${runs} calls, each followed by ${links.map((l) => `${l.name} (${l.operationId})`).join(", ")}`,
  };
}
