/**
 * Parameters travel as text (`?limit=5`, `/pets/7`). These helpers turn generated values into that
 * text and decide, without asking the server, whether a text is certainly invalid: only texts that
 * no reasonable reading of the schema accepts are used as "invalid" cases (e.g. `05` or ` 5` are
 * ambiguous under type coercion and are left out).
 */
import fc from "fast-check";
import { JsonNumberLiteral } from "./json-text.js";
import { resolveSchema, validArbitrary } from "./schema-arbitrary.js";
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

/** How a parameter text reads against its schema: certainly valid, certainly invalid, or unclear. */
export function classifyParamText(
  schema: JsonSchema,
  doc: unknown,
  text: string,
  validate: (schema: JsonSchema, value: unknown) => string[],
): "valid" | "invalid" | "ambiguous" {
  const s = resolveSchema(schema, doc);
  if (s.type === "integer" || s.type === "number") {
    if (CANONICAL_NUMBER.test(text)) {
      return validate(schema, Number(text)).length === 0 ? "valid" : "invalid";
    }
    // Text that Number() reads ("05", " 5", "0x1f", "1.") might be coerced by a lenient server.
    return text.trim() !== "" && Number.isFinite(Number(text)) ? "ambiguous" : "invalid";
  }
  return validate(schema, text).length === 0 ? "valid" : "invalid";
}

/** Texts of valid values of a parameter schema. */
export function validParamText(schema: JsonSchema, doc: unknown): fc.Arbitrary<string> {
  return validArbitrary(schema, doc).map((v) => {
    const text = paramText(v);
    if (text === null) throw new Error("parameter schema is not scalar");
    return text;
  });
}

/** Texts that certainly break a parameter schema (never empty: `?limit=` is its own case). */
export function invalidParamText(
  schema: JsonSchema,
  doc: unknown,
  validate: (schema: JsonSchema, value: unknown) => string[],
): fc.Arbitrary<string> {
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
  return pool.filter(
    (text): text is string =>
      text !== null && text !== "" && classifyParamText(schema, doc, text, validate) === "invalid",
  );
}
