/**
 * What the engine adds to an Ajv instance, in one place: every format ajv-formats knows, in its
 * full mode (a `date` is a day of the calendar, so `2023-02-30` is refused; `time` and
 * `date-time` need their offset; `uri`, `email` and the rest by their RFCs), and the project's
 * strict-integer rule as a keyword, so that the one validator applies the one rule.
 *
 * How it plugs in: the validator's compile calls `addEngineFormats(ajv)` on the Ajv instance it
 * builds (express-openapi-validator takes the same through its options:
 * `ajvFormats: ENGINE_FORMATS`), and the compiled operation wraps each integer parameter's
 * schema with `strictIntegers(schema)` before compiling it with type coercion, which then
 * replaces the separate pre-check of validation/integer-syntax.ts.
 *
 * Why a wrapper: Ajv coerces a string to an integer before any keyword of the same schema runs,
 * with JavaScript's number syntax (`0x10`, `1e2`, ` 5`), so the text is gone by then. In
 * `{ allOf: [{ "x-strict-integer": true }, schema] }` the first branch has no type, sees the
 * text as sent, and the second coerces it as before.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#data-type-format
 * @see https://spec.openapis.org/registry/format/
 * @see https://ajv.js.org/packages/ajv-formats.html
 */
import type { Ajv, KeywordDefinition } from "ajv";
import addFormats, { type FormatOptions } from "ajv-formats";

/** Every format ajv-formats knows, each checked in full. */
export const ENGINE_FORMATS: FormatOptions = { mode: "full" };

/** The keyword of the strict-integer rule. */
export const STRICT_INTEGER = "x-strict-integer";

// Decimal digits, no leading zero (`0` itself aside), a minus sign only before a nonzero value.
const DECIMAL = /^(?:0|-?[1-9][0-9]*)$/;

/**
 * The strict-integer rule as a keyword: a string that JavaScript would read as an integer must be
 * written in decimal digits. What is no integer at all (`abc`, `1.5`) is left to the type's own
 * error, as today.
 */
export const strictIntegerKeyword: KeywordDefinition = {
  keyword: STRICT_INTEGER,
  type: "string",
  schemaType: "boolean",
  errors: true,
  validate: function strictInteger(enabled: boolean, data: string) {
    if (!enabled || DECIMAL.test(data) || !Number.isInteger(Number(data))) return true;
    (strictInteger as { errors?: unknown[] }).errors = [
      {
        keyword: STRICT_INTEGER,
        message:
          "must be an integer in decimal digits, without a plus sign, spaces, exponent or leading zero",
        params: {},
      },
    ];
    return false;
  },
};

/** Adds the formats in full mode and the strict-integer keyword to `ajv`; returns it. */
export function addEngineFormats<A extends Ajv>(ajv: A): A {
  addFormats.default(ajv, ENGINE_FORMATS);
  if (ajv.getKeyword(STRICT_INTEGER) === false) ajv.addKeyword(strictIntegerKeyword);
  return ajv;
}

function isIntegerSchema(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  return type === "integer" || (Array.isArray(type) && type.includes("integer"));
}

/**
 * A copy of a parameter's schema in which every integer schema is checked by the strict-integer
 * rule before Ajv coerces it (an array's items and an object's properties included).
 */
export function strictIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictIntegers);
  if (typeof schema !== "object" || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] =
      key === "enum" ||
      key === "const" ||
      key === "default" ||
      key === "examples" ||
      key === "example"
        ? value
        : strictIntegers(value);
  }
  return isIntegerSchema(copy) ? { allOf: [{ [STRICT_INTEGER]: true }, copy] } : copy;
}
