/**
 * What a request exercised of its operation's schemas, judged by the spec alone (no server):
 * which keywords it broke (by Ajv, so a keyword counts only when a validator says it failed) and
 * which boundaries a valid value sat on (a minimum or maximum hit exactly, a length at its bound,
 * an enum member). The coverage report credits them by what the server answered.
 */
import { paramValue } from "./param-strings.js";
import { partsOf } from "./request-parts.js";
import { type KeywordCell, operationKeywords } from "./schema-keywords.js";
import type { OperationSpec } from "./spec.js";
import type { SpecValidator } from "./spec-validator.js";

/** A keyword exercised at a location; `member` names the enum member an edge hit. */
export interface Exercised {
  location: string;
  keyword: string;
  member?: string;
}

/** What one request broke and which boundaries its valid values hit. */
export interface RequestAnalysis {
  violated: Exercised[];
  edges: Exercised[];
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The boundaries `value` sits on among `cells` (all of one location). */
function edgesOf(cells: KeywordCell[], value: unknown): Exercised[] {
  const out: Exercised[] = [];
  for (const { location, keyword, schema } of cells) {
    const bound = schema[keyword];
    const length =
      typeof value === "string" ? [...value].length : Array.isArray(value) ? value.length : null;
    const hit =
      ((keyword === "minimum" || keyword === "maximum") && value === bound) ||
      ((keyword === "minLength" || keyword === "maxLength") &&
        length === bound &&
        typeof value === "string") ||
      ((keyword === "minItems" || keyword === "maxItems") &&
        length === bound &&
        Array.isArray(value)) ||
      (keyword === "const" && deepEqual(value, bound));
    if (hit) out.push({ location, keyword });
    if (keyword === "enum" && (bound as unknown[]).some((m) => deepEqual(m, value))) {
      out.push({ location, keyword, member: JSON.stringify(value) });
    }
  }
  return out;
}

/** The values at a body pointer (`*` stands for every item of an array). */
function valuesAt(value: unknown, pointer: string[]): unknown[] {
  if (pointer.length === 0) return value === undefined ? [] : [value];
  const [head, ...rest] = pointer;
  if (head === "*") return Array.isArray(value) ? value.flatMap((v) => valuesAt(v, rest)) : [];
  if (value === null || typeof value !== "object" || !Object.hasOwn(value, head as string))
    return [];
  return valuesAt((value as Record<string, unknown>)[head as string], rest);
}

/** A body location from an Ajv instance path (`/name` → `body/name`, array indexes → `*`). */
function bodyLocation(pointer: string): string {
  return [
    "body",
    ...pointer
      .split("/")
      .slice(1)
      .map((s) => (/^\d+$/.test(s) ? "*" : s)),
  ].join("/");
}

/** What `req` (target relative to the base path) exercised of `op`; null when not its path. */
export function analyseRequest(
  op: OperationSpec,
  doc: unknown,
  validator: SpecValidator,
  req: { target: string; headers?: Record<string, string>; body?: string | Buffer },
): RequestAnalysis | null {
  const parts = partsOf(op, req);
  if (!parts) return null;
  const cells = operationKeywords(op, doc);
  const at = (location: string) => cells.filter((c) => c.location === location);
  const violated: Exercised[] = [];
  const edges: Exercised[] = [];
  for (const p of op.parameters) {
    const location = `${p.in} ${p.name}`;
    const texts =
      p.in === "path"
        ? [parts.path[p.name] ?? ""]
        : p.in === "query"
          ? parts.query.filter(([k]) => k === p.name).map(([, v]) => v)
          : p.name in parts.headers
            ? [parts.headers[p.name] as string]
            : [];
    if (texts.length === 0 && p.required) violated.push({ location, keyword: "required" });
    if (texts.length !== 1) continue;
    const value = paramValue(p.schema, doc, texts[0] as string);
    if (value === undefined) continue;
    const broken = validator.violations(p.schema, value);
    violated.push(...broken.map((v) => ({ location, keyword: v.keyword })));
    if (broken.length === 0) edges.push(...edgesOf(at(location), value));
  }
  if (op.requestBody) {
    if (parts.body === null && op.requestBody.required) {
      violated.push({ location: "requestBody", keyword: "required" });
    } else if (parts.body && parts.body.value !== undefined) {
      const broken = validator.violations(op.requestBody.schema, parts.body.value);
      violated.push(
        ...broken.map((v) => ({ location: bodyLocation(v.pointer), keyword: v.keyword })),
      );
      if (broken.length === 0) {
        for (const cell of cells.filter((c) => c.slot.in === "body")) {
          const pointer = cell.slot.in === "body" ? cell.slot.pointer : [];
          for (const v of valuesAt(parts.body.value, pointer)) edges.push(...edgesOf([cell], v));
        }
      }
    }
  }
  return { violated, edges };
}
