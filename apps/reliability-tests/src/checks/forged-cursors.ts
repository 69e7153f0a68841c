/**
 * "Forged and moved cursors refused", for an operation that pages (`x-pagination`): an issued
 * cursor (taken from a real `next` link) cut, edited, added to or replaced by made-up text must
 * get 400 with the code the spec gives a cursor it did not issue (`x-pagination`'s reader: the
 * operation's `invalidCursor` 400 example); the same cursor sent with another filter (a filter
 * parameter changed, dropped or added) 400 with the code of its `cursorForAnotherFilter` example.
 * Never a page, never a 5xx.
 */
import fc from "fast-check";
import type { CheckResult } from "../fuzz-coverage.js";
import type { FuzzRun } from "../fuzz-exchange.js";
import { must, runProperty } from "../fuzz-run.js";
import { jsonBody } from "../http-client.js";
import { nextTarget, type Query, queryOf, targetOf, withQuery } from "../next-links.js";
import { validParamText } from "../param-strings.js";
import { validParts } from "../request-generator.js";
import type { JsonSchema, OperationSpec } from "../spec.js";
import { sendTarget } from "./issued-cursors.js";

/** The check class name, as the report shows it. */
export const FORGED_CURSORS = "forged and moved cursors refused";

type CursorCodes = NonNullable<OperationSpec["pagination"]>["codes"];

/** One way to spoil an issued cursor, or to move it to another filter. */
type Forgery =
  | { kind: "cut"; at: number }
  | { kind: "edit"; at: number; char: string }
  | { kind: "add"; at: number; char: string }
  | { kind: "made up"; text: string }
  | { kind: "move"; param: number; value: string | null };

function forgeries(run: FuzzRun, op: OperationSpec, filters: string[]): fc.Arbitrary<Forgery> {
  const char = fc.constantFrom(..."AZaz09-_.~+/=%! é");
  const damage: fc.Arbitrary<Forgery>[] = [
    fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("edit" as const), at: fc.nat(), char }),
    fc.record({ kind: fc.constant("add" as const), at: fc.nat(), char }),
    fc.record({
      kind: fc.constant("made up" as const),
      text: fc.string({ minLength: 1, maxLength: 80 }),
    }),
  ];
  const moves = filters.map((name, param) => {
    const p = op.parameters.find((q) => q.name === name) as { schema: JsonSchema };
    const value = fc.option(validParamText(p.schema, run.contract.doc), { nil: null });
    return fc.record({ kind: fc.constant("move" as const), param: fc.constant(param), value });
  });
  return fc.oneof(...damage, ...moves);
}

/** The query a forgery makes of an issued next target's, and the code it must get (null: none). */
function forged(
  query: Query,
  cursorName: string,
  filters: string[],
  f: Forgery,
  codes: CursorCodes,
): [Query, string | null] {
  const cursor = query.find(([k]) => k === cursorName)?.[1] ?? "";
  const at = (n: number) => (cursor.length === 0 ? 0 : n % cursor.length);
  // An empty cursor is refused by the schema (validation_failed), not by the cursor check.
  const spoiled = (text: string): [Query, string | null] => [
    query.map(([k, v]) => [k, k === cursorName ? text : v]),
    text === cursor || text === "" ? null : codes.invalid,
  ];
  if (f.kind === "cut") return spoiled(cursor.slice(0, at(f.at)));
  if (f.kind === "edit")
    return spoiled(cursor.slice(0, at(f.at)) + f.char + cursor.slice(at(f.at) + 1));
  if (f.kind === "add") return spoiled(cursor.slice(0, at(f.at)) + f.char + cursor.slice(at(f.at)));
  if (f.kind === "made up") return spoiled(f.text);
  const name = filters[f.param] as string;
  const before = query.find(([k]) => k === name)?.[1] ?? null;
  const moved: Query = query.filter(([k]) => k !== name);
  if (f.value !== null) moved.push([name, f.value]);
  return [moved, f.value === before ? null : codes.otherFilter];
}

/** Issued cursors spoiled or moved to another filter are refused with their own codes. */
export async function forgedCursors(run: FuzzRun, op: OperationSpec): Promise<CheckResult> {
  if (!op.pagination) return { applied: false, note: "does not page" };
  const { cursorParameter, pageSizeParameter } = op.pagination;
  const { codes } = op.pagination;
  const filters = op.parameters
    .filter((p) => p.in === "query" && p.name !== cursorParameter && p.name !== pageSizeParameter)
    .map((p) => p.name);
  let refused = 0;
  const runs = await runProperty(
    `${FORGED_CURSORS}, ${op.operationId}`,
    fc.tuple(validParts(op, run.contract.doc), forgeries(run, op, filters)),
    async ([parts, forgery], trail) => {
      // One item per page, so any list of two or more has a next link to take a cursor from.
      const query = parts.query.filter(([k]) => k !== pageSizeParameter);
      const first = targetOf(op, { ...parts, query: [...query, [pageSizeParameter, "1"]] });
      const page = await sendTarget(run, op, FORGED_CURSORS, first, trail);
      const next = nextTarget(run.contract.basePath, page, first);
      if (next === undefined) return;
      const [sent, code] = forged(queryOf(next), cursorParameter, filters, forgery, codes);
      if (code === null) return;
      const res = await sendTarget(run, op, FORGED_CURSORS, withQuery(next, sent), trail);
      const body = res.status === 400 ? jsonBody<{ code?: unknown }>(res) : undefined;
      const got = `${res.status} ${res.bodyText.slice(0, 120)}`;
      must(
        res.status === 400 && body?.code === code,
        `${forgery.kind}: expected 400 ${code}, got ${got}`,
      );
      refused++;
    },
    run.settings,
  );
  must(refused > 0, `${FORGED_CURSORS}: no run reached a next link (does the list have one page?)`);
  return { applied: true, note: `${runs} generated, ${refused} forged or moved cursors refused` };
}
