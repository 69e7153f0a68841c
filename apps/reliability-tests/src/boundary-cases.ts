/**
 * The deterministic half of the fuzzing (Schemathesis's "coverage phase"): for every keyword of
 * every operation's input, one request on its boundary (a minimum, a length at its bound, each
 * enum member), which must be accepted, and one just beyond it (a minimum minus one, a character
 * the pattern forbids, a required property dropped), which must be refused. Each starts from the
 * operation's example request and changes one value, so it is minimal by construction.
 */
import { exampleRequest } from "@animal-store/openapi";
import fc from "fast-check";
import { JsonNumberLiteral, toJsonText, withOwnProperty } from "./json-text.js";
import { paramText } from "./param-strings.js";
import { serverIssued, validParts } from "./request-generator.js";
import { assemble, type GeneratedRequest, type Parts, partsOf } from "./request-parts.js";
import { patternUnit } from "./schema-arbitrary.js";
import { type KeywordCell, operationKeywords, type Slot } from "./schema-keywords.js";
import type { OperationSpec } from "./spec.js";

/** One boundary request: `edge` ones must be accepted, `beyond` ones refused. */
export interface BoundaryCase {
  side: "edge" | "beyond";
  location: string;
  keyword: string;
  label: string;
  request: GeneratedRequest;
}

/** One value for a slot: set it, change what is there, or leave the slot out. */
type Change =
  | { side: BoundaryCase["side"]; value: unknown }
  | { side: BoundaryCase["side"]; transform: (old: unknown) => unknown; shown: string }
  | { side: BoundaryCase["side"]; omit: true; shown: string };

/**
 * The operation's example request as parts, without a server-issued cursor (an example cursor
 * belongs to its example filter: edit the filter and it is refused); a generated valid one when
 * the operation has no example.
 */
export function baseParts(op: OperationSpec, doc: unknown): Parts {
  try {
    const example = exampleRequest(doc as Parameters<typeof exampleRequest>[0], "", op.routed);
    const body = example.body === undefined ? {} : { body: example.body };
    const parts = partsOf(op, { target: example.path, headers: example.headers, ...body });
    if (parts) {
      const issued = op.parameters.filter((p) => serverIssued(op, p)).map((p) => p.name);
      return { ...parts, query: parts.query.filter(([name]) => !issued.includes(name)) };
    }
  } catch {
    // No example for a required part: fall back to a generated request.
  }
  return fc.sample(validParts(op, doc), { seed: 1, numRuns: 1 })[0] as Parts;
}

function numberAt(bound: number, offset: number): unknown {
  return Number.isInteger(bound)
    ? new JsonNumberLiteral(String(BigInt(bound) + BigInt(offset)))
    : bound + offset;
}

const VISIBLE_ASCII = Array.from({ length: 0x5e }, (_, i) => String.fromCodePoint(0x21 + i));

/** A character the schema's pattern allows (a letter when it can), visible ASCII. */
function allowedChar(pattern: unknown): string {
  if (typeof pattern !== "string") return "a";
  const unit = patternUnit(pattern);
  const found = ["a", ...VISIBLE_ASCII].find((ch) => unit.test(ch));
  if (found === undefined) throw new Error(`pattern ${pattern} allows no visible ASCII character`);
  return found;
}

/** A character the pattern forbids: any code point below 0x100, visible ASCII in a header. */
function forbiddenChar(pattern: string, header: boolean): string | null {
  const unit = patternUnit(pattern);
  const pool = header
    ? VISIBLE_ASCII
    : Array.from({ length: 0x100 }, (_, cp) => String.fromCodePoint(cp));
  return pool.find((ch) => !unit.test(ch)) ?? null;
}

function nonMember(values: unknown[]): unknown {
  const first = values[0];
  if (typeof first === "string") {
    return [first.toUpperCase(), `${first}_`].find((v) => !values.includes(v));
  }
  if (typeof first === "number") return Math.max(...(values as number[])) + 1;
  return values.includes("x") ? null : "x";
}

const OTHER_TYPE: Record<string, unknown> = {
  integer: "x",
  number: "x",
  boolean: "x",
  string: 1,
  object: [],
  array: {},
  null: 0,
};

/** The changes that put one keyword cell on its edge and just beyond it. */
function changesOf(cell: KeywordCell): Change[] {
  const s = cell.schema;
  const bound = s[cell.keyword] as number;
  const text = (n: number) => allowedChar(s.pattern).repeat(n);
  switch (cell.keyword) {
    case "minimum":
      return [
        { side: "edge", value: numberAt(bound, 0) },
        { side: "beyond", value: numberAt(bound, -1) },
      ];
    case "maximum":
      return [
        { side: "edge", value: numberAt(bound, 0) },
        { side: "beyond", value: numberAt(bound, 1) },
      ];
    case "minLength":
      return [
        { side: "edge", value: text(bound) },
        ...(bound > 0 ? [{ side: "beyond" as const, value: text(bound - 1) }] : []),
      ];
    case "maxLength":
      return [
        { side: "edge", value: text(bound) },
        { side: "beyond", value: text(bound + 1) },
      ];
    case "enum": {
      const members = s.enum as unknown[];
      return [
        ...members.map((value) => ({ side: "edge" as const, value })),
        { side: "beyond", value: nonMember(members) },
      ];
    }
    case "const":
      return [
        { side: "edge", value: s.const },
        { side: "beyond", value: nonMember([s.const]) },
      ];
    case "type":
      return [{ side: "beyond", value: OTHER_TYPE[String(s.type)] }];
    case "format":
      // The integer formats (int32, int64) are broken by a fraction inside the bounds.
      return [{ side: "beyond", value: ((s.minimum as number | undefined) ?? 0) + 0.5 }];
    case "pattern": {
      const bad = forbiddenChar(String(s.pattern), cell.slot.in === "header");
      const room = Math.max(0, ((s.minLength as number | undefined) ?? 1) - 1);
      return bad === null ? [] : [{ side: "beyond", value: text(room) + bad }];
    }
    case "required":
      if (cell.slot.in !== "body") return [{ side: "beyond", omit: true, shown: "left out" }];
      return (s.required as string[]).map((name) => ({
        side: "beyond" as const,
        shown: `without ${name}`,
        transform: (old: unknown) => {
          const { [name]: _dropped, ...rest } = old as Record<string, unknown>;
          return rest;
        },
      }));
    case "additionalProperties": {
      const known = Object.keys((s.properties as object | undefined) ?? {});
      const name = ["unexpected", "unexpected_"].find((n) => !known.includes(n)) as string;
      return [
        {
          side: "beyond",
          shown: `with "${name}"`,
          transform: (old) => withOwnProperty({ ...(old as object) }, name, 1),
        },
      ];
    }
    default:
      return [];
  }
}

/** `root` with the value at `pointer` replaced by `update(old)` (`*`: the first item). */
function updateAt(root: unknown, pointer: string[], update: (old: unknown) => unknown): unknown {
  if (pointer.length === 0) return update(root);
  const [head, ...rest] = pointer as [string, ...string[]];
  const key = head === "*" ? "0" : head;
  const container = Array.isArray(root) ? [...root] : { ...((root ?? {}) as object) };
  const old = (container as Record<string, unknown>)[key];
  return withOwnProperty(container, key, updateAt(old, rest, update));
}

function applied(base: Parts, slot: Slot, change: Change): Parts {
  const parts: Parts = structuredClone(base);
  const text = "value" in change ? paramText(change.value) : null;
  if (slot.in === "path") parts.path[slot.name] = text ?? "";
  if (slot.in === "query") {
    parts.query = parts.query.filter(([k]) => k !== slot.name);
    if (text !== null) parts.query.push([slot.name, text]);
  }
  if (slot.in === "header") {
    delete parts.headers[slot.name];
    if (text !== null) parts.headers[slot.name] = text;
  }
  if (slot.in === "requestBody") parts.body = null;
  if (slot.in === "body") {
    const update =
      "transform" in change
        ? change.transform
        : () => ("value" in change ? change.value : undefined);
    const value = updateAt(base.body?.value, slot.pointer, update);
    parts.body = { text: toJsonText(value), value };
  }
  return parts;
}

/** Every boundary case of `op`: for each keyword cell, its edge and beyond requests. */
export function boundaryCases(op: OperationSpec, doc: unknown): BoundaryCase[] {
  const base = baseParts(op, doc);
  const issued = (cell: KeywordCell) =>
    cell.slot.in === "query" &&
    op.parameters.some(
      (p) => p.name === (cell.slot as { name: string }).name && serverIssued(op, p),
    );
  return operationKeywords(op, doc).flatMap((cell) =>
    cell.unreachable
      ? []
      : changesOf(cell)
          // A value made up on a cursor's edge is still not one the server issued: only the
          // broken side of its keywords applies (the cursor checks send issued ones).
          .filter((change) => !(issued(cell) && change.side === "edge"))
          .map((change) => {
            const { side } = change;
            const what = `${cell.location} ${cell.keyword}`;
            const request = assemble(
              op,
              applied(base, cell.slot, change),
              side === "beyond" ? what : "",
            );
            if (cell.slot.in === "requestBody")
              request.headers["content-type"] = "application/json";
            const shown = "value" in change ? toJsonText(change.value) : change.shown;
            const label = `${what} ${side === "edge" ? "at its edge" : "broken"}: ${shown}`;
            return { side, location: cell.location, keyword: cell.keyword, label, request };
          }),
  );
}
