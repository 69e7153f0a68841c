/**
 * Parameters travel as text (`?limit=5`, `/pets/7`). These helpers turn generated values into that
 * text and decide, without asking the server, whether a text is certainly invalid: only texts that
 * no reasonable reading of the schema accepts are used as "invalid" cases (e.g. `05` or ` 5` are
 * ambiguous under type coercion and are left out).
 */
import fc from "fast-check";
import { JsonNumberLiteral } from "./json-text.js";
import { headerUnit, resolveSchema, validArbitrary } from "./schema-arbitrary.js";
import { invalidArbitrary } from "./schema-mutations.js";
import type { JsonSchema } from "./spec.js";

const CANONICAL_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** The text form of a generated scalar, or null for values that are not scalars. */
export function paramText(value: unknown): string | null {
  if (value instanceof JsonNumberLiteral) return value.text;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return "null";
  return null;
}

/**
 * The value a parameter text stands for under its schema: a number for a canonical numeric text
 * of a numeric schema, the text itself otherwise; undefined when a lenient server might read it
 * either way ("05", " 5", "0x1f", "1." for a number).
 */
export function paramValue(schema: JsonSchema, doc: unknown, text: string): unknown {
  const s = resolveSchema(schema, doc);
  if (s.type !== "integer" && s.type !== "number") return text;
  if (CANONICAL_NUMBER.test(text)) return Number(text);
  return text.trim() !== "" && Number.isFinite(Number(text)) ? undefined : text;
}

/** How a parameter text reads against its schema: certainly valid, certainly invalid, or unclear. */
export function classifyParamText(
  schema: JsonSchema,
  doc: unknown,
  text: string,
  validate: (schema: JsonSchema, value: unknown) => string[],
): "valid" | "invalid" | "ambiguous" {
  const value = paramValue(schema, doc, text);
  if (value === undefined) return "ambiguous";
  return validate(schema, value).length === 0 ? "valid" : "invalid";
}

/** Whether a text can travel as a header value as it is (visible ASCII only). */
export function headerSafe(text: string): boolean {
  return /^[\x21-\x7e]*$/.test(text);
}

/** Texts of valid values of a parameter schema; `header`: only texts a header can carry. */
export function validParamText(
  schema: JsonSchema,
  doc: unknown,
  header = false,
): fc.Arbitrary<string> {
  return validArbitrary(schema, doc, header ? { unit: headerUnit } : {}).map((v) => {
    const text = paramText(v);
    if (text === null) throw new Error("parameter schema is not scalar");
    return text;
  });
}

/**
 * Texts that certainly break a parameter schema (never empty: `?limit=` is its own case); null
 * when no text can (a string without constraints), found by a fixed sample rather than a filter
 * that would spin forever.
 */
export function invalidParamText(
  schema: JsonSchema,
  doc: unknown,
  validate: (schema: JsonSchema, value: unknown) => string[],
  header = false,
): fc.Arbitrary<string> | null {
  const mutations = invalidArbitrary(schema, doc);
  const hostile = fc.constantFrom(
    "abc",
    "1.5",
    "-1",
    "0",
    "9007199254740993",
    "1e400",
    "Infinity",
    "-Infinity",
    "NaN",
    "%",
    "\u0000",
  );
  const pool = mutations ? fc.oneof(mutations.map(paramText), hostile) : hostile;
  const breaks = (text: string | null): text is string =>
    text !== null &&
    text !== "" &&
    (!header || headerSafe(text)) &&
    classifyParamText(schema, doc, text, validate) === "invalid";
  if (!fc.sample(pool, { seed: 1, numRuns: 200 }).some(breaks)) return null;
  return pool.filter(breaks);
}
