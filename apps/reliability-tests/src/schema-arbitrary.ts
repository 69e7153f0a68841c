/**
 * JSON Schema → fast-check arbitrary of VALID values, for the subset of JSON Schema the contract
 * uses. Any keyword outside that subset throws, so a spec change the converter cannot honour fails
 * loudly instead of silently generating wrong data.
 */
import fc from "fast-check";
import { type JsonSchema, resolvePointer } from "./spec.js";

// `x-open-enum` says clients must expect values added later; what is valid now is its `enum`.
const ANNOTATIONS = new Set([
  "description",
  "examples",
  "example",
  "title",
  "default",
  "$comment",
  "x-open-enum",
]);
/** Every keyword the converter understands; any other one throws. */
export const SUPPORTED = new Set([
  "$ref",
  "type",
  "enum",
  "const",
  "format",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "minItems",
  "maxItems",
]);
/** Formats whose meaning the numeric bounds already carry. */
const NUMERIC_FORMATS = new Set(["int32", "int64"]);

/** Resolves `$ref` chains and rejects keywords the converter does not understand. */
export function resolveSchema(schema: JsonSchema, doc: unknown): JsonSchema {
  let current = schema;
  while (typeof current.$ref === "string") {
    current = resolvePointer(doc, current.$ref) as JsonSchema;
  }
  for (const key of Object.keys(current)) {
    if (!SUPPORTED.has(key) && !ANNOTATIONS.has(key)) {
      throw new Error(`schema keyword "${key}" is not supported by the arbitrary converter`);
    }
  }
  if (typeof current.format === "string" && !NUMERIC_FORMATS.has(current.format)) {
    throw new Error(`format "${current.format}" is not supported by the arbitrary converter`);
  }
  return current;
}

/** One code point per unit: mostly printable ASCII, some of all Unicode, a few control chars. */
export const codePointUnit: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 3, arbitrary: fc.integer({ min: 0xa0, max: 0x10ffff }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x1f }) },
  )
  .filter((cp) => cp < 0xd800 || cp > 0xdfff)
  .map((cp) => String.fromCodePoint(cp));

/** `^[class]+$` / `^[class]*$`: the one pattern shape the converter generates for. */
const SINGLE_CLASS = /^\^(\[(?:\\.|[^\]\\])+\])([+*])\$$/;

/** The regex matching ONE allowed character of a single-class pattern; throws on other shapes. */
export function patternUnit(pattern: string): RegExp {
  const match = SINGLE_CLASS.exec(pattern);
  if (!match?.[1]) throw new Error(`pattern ${pattern} is not of the form ^[...]+$`);
  return new RegExp(`^${match[1]}$`, "u");
}

/** One visible ASCII character: what a header value can carry without encoding questions. */
export const headerUnit: fc.Arbitrary<string> = fc
  .integer({ min: 0x21, max: 0x7e })
  .map((cp) => String.fromCodePoint(cp));

/** How strings are drawn: by default any code point; `unit` narrows it (header values). */
export interface StringOptions {
  unit?: fc.Arbitrary<string>;
}

function stringArbitrary(schema: JsonSchema, options: StringOptions): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = (schema.maxLength as number | undefined) ?? minLength + 40;
  const pattern = schema.pattern as string | undefined;
  const allowed = pattern ? patternUnit(pattern) : null;
  const base = options.unit ?? codePointUnit;
  const unit = allowed ? base.filter((ch) => allowed.test(ch)) : base;
  if (pattern && SINGLE_CLASS.exec(pattern)?.[2] === "+" && minLength < 1) {
    return fc.string({ unit, minLength: 1, maxLength });
  }
  return fc.string({ unit, minLength, maxLength });
}

function integerArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const min = (schema.minimum as number | undefined) ?? Number.MIN_SAFE_INTEGER;
  const max = (schema.maximum as number | undefined) ?? Number.MAX_SAFE_INTEGER;
  return fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
}

function objectArbitrary(schema: JsonSchema, doc: unknown): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties)) model[name] = validArbitrary(sub, doc);
  return fc.record(model, { requiredKeys: required });
}

/** An arbitrary of values that satisfy `schema` (refs resolved against `doc`). */
export function validArbitrary(
  schema: JsonSchema,
  doc: unknown,
  options: StringOptions = {},
): fc.Arbitrary<unknown> {
  const s = resolveSchema(schema, doc);
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  switch (s.type) {
    case "string":
      return stringArbitrary(s, options);
    case "integer":
      return integerArbitrary(s);
    case "number":
      return fc.double({
        min: (s.minimum as number | undefined) ?? -1e12,
        max: (s.maximum as number | undefined) ?? 1e12,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(validArbitrary((s.items as JsonSchema | undefined) ?? {}, doc), {
        minLength: (s.minItems as number | undefined) ?? 0,
        maxLength: (s.maxItems as number | undefined) ?? 5,
      });
    case "object":
      return objectArbitrary(s, doc);
    default:
      throw new Error(`schema type ${JSON.stringify(s.type)} is not supported`);
  }
}
