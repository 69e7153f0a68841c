/**
 * JSON Schema → fast-check arbitrary of INVALID values: each breaks exactly the schema in one
 * documented way (wrong type, outside an enum, out of range, too short or long, a forbidden
 * character, a missing required property, an unknown property such as `__proto__`, a bad member).
 */
import fc from "fast-check";
import { JsonNumberLiteral, withOwnProperty } from "./json-text.js";
import { codePointUnit, patternUnit, resolveSchema, validArbitrary } from "./schema-arbitrary.js";
import type { JsonSchema } from "./spec.js";

/** Keys that attack object handling: prototype pollution and look-alikes of real fields. */
export const HOSTILE_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];

const JSON_TYPES: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.string({ maxLength: 8 }),
  integer: fc.integer(),
  fraction: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
  boolean: fc.boolean(),
  null: fc.constant(null),
  array: fc.array(fc.integer(), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
};

function wrongType(type: string): fc.Arbitrary<unknown> {
  // An integer is also a number; a fraction is a wrong "integer" but a right "number".
  const excluded: Record<string, string[]> = {
    number: ["integer", "fraction"],
    integer: ["integer"],
  };
  const skip = excluded[type] ?? [type];
  const others = Object.entries(JSON_TYPES).filter(([name]) => !skip.includes(name));
  return fc.oneof(...others.map(([, arb]) => arb));
}

/** A JSON number literal `offset` (1..2^70) beyond `bound` in the direction of `sign`. */
function beyond(bound: number, sign: 1 | -1): fc.Arbitrary<unknown> {
  // Just past the bound as often as far past it: an off-by-some check is found, and shrinks to one.
  const exact = fc
    .oneof(fc.bigInt({ min: 1n, max: 100n }), fc.bigInt({ min: 1n, max: 2n ** 70n }))
    .map((offset) => new JsonNumberLiteral(String(BigInt(bound) + BigInt(sign) * offset)));
  const exponent = fc
    .integer({ min: 20, max: 400 })
    .map((e) => new JsonNumberLiteral(`${sign < 0 ? "-" : ""}1e${e}`));
  return fc.oneof(exact, exponent);
}

function numericMutations(s: JsonSchema): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  if (typeof s.minimum === "number") out.push(beyond(s.minimum, -1));
  if (typeof s.maximum === "number") out.push(beyond(s.maximum, 1));
  if (s.type === "integer") {
    const min = (s.minimum as number | undefined) ?? -1e6;
    const max = Math.min((s.maximum as number | undefined) ?? 1e6, 1e6);
    out.push(fc.double({ min, max, noNaN: true }).filter((n) => !Number.isInteger(n)));
  }
  return out;
}

function stringMutations(s: JsonSchema): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const allowed = typeof s.pattern === "string" ? patternUnit(s.pattern) : null;
  const unit = allowed ? codePointUnit.filter((ch) => allowed.test(ch)) : codePointUnit;
  const minLength = (s.minLength as number | undefined) ?? 0;
  const maxLength = (s.maxLength as number | undefined) ?? null;
  if (minLength > 0) out.push(fc.string({ unit, maxLength: minLength - 1 }));
  if (maxLength !== null) {
    out.push(fc.string({ unit, minLength: maxLength + 1, maxLength: maxLength + 40 }));
  }
  if (allowed) {
    const forbidden: string[] = [];
    for (let cp = 0; cp < 0x100; cp++) {
      const ch = String.fromCodePoint(cp);
      if (!allowed.test(ch)) forbidden.push(ch);
    }
    if (forbidden.length > 0) {
      const room = Math.max(0, (maxLength ?? minLength + 20) - 1);
      out.push(
        fc
          .tuple(fc.string({ unit, maxLength: room }), fc.constantFrom(...forbidden), fc.nat())
          .map(([text, bad, at]) => {
            const chars = [...text];
            chars.splice(at % (chars.length + 1), 0, bad);
            return chars.join("");
          }),
      );
    }
  }
  return out;
}

function enumMutations(values: unknown[]): fc.Arbitrary<unknown> {
  const strings = values.filter((v): v is string => typeof v === "string");
  const lookAlikes = strings.flatMap((v) => [v.toUpperCase(), ` ${v}`, `${v}\u0000`, `${v},${v}`]);
  const pool =
    lookAlikes.length > 0 ? fc.oneof(fc.constantFrom(...lookAlikes), fc.string()) : fc.string();
  return pool.filter((v) => !values.includes(v));
}

function objectMutations(s: JsonSchema, doc: unknown): fc.Arbitrary<unknown>[] {
  const properties = (s.properties as Record<string, JsonSchema> | undefined) ?? {};
  const required = (s.required as string[] | undefined) ?? [];
  const valid = validArbitrary(s, doc) as fc.Arbitrary<Record<string, unknown>>;
  const out: fc.Arbitrary<unknown>[] = [];
  if (required.length > 0) {
    out.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([obj, key]) => {
        const { [key]: _dropped, ...rest } = obj;
        return rest;
      }),
    );
  }
  if (s.additionalProperties === false) {
    const key = fc
      .oneof(fc.constantFrom(...HOSTILE_KEYS, "id"), fc.string({ minLength: 1, maxLength: 10 }))
      .filter((k) => !Object.hasOwn(properties, k));
    out.push(
      fc
        .tuple(valid, key, fc.jsonValue({ maxDepth: 2 }))
        .map(([obj, k, v]) => withOwnProperty({ ...obj }, k, v)),
    );
  }
  for (const [name, sub] of Object.entries(properties)) {
    const bad = invalidArbitrary(sub, doc);
    if (bad) out.push(fc.tuple(valid, bad).map(([obj, v]) => withOwnProperty({ ...obj }, name, v)));
  }
  return out;
}

/** An arbitrary of values that break `schema`, or null when nothing can (the empty schema). */
export function invalidArbitrary(schema: JsonSchema, doc: unknown): fc.Arbitrary<unknown> | null {
  const s = resolveSchema(schema, doc);
  const strategies: fc.Arbitrary<unknown>[] = [];
  if (typeof s.type === "string") strategies.push(wrongType(s.type));
  if (Array.isArray(s.enum)) strategies.push(enumMutations(s.enum as unknown[]));
  if ("const" in s) strategies.push(fc.jsonValue().filter((v) => v !== s.const));
  if (s.type === "integer" || s.type === "number") strategies.push(...numericMutations(s));
  if (s.type === "string") strategies.push(...stringMutations(s));
  if (s.type === "object") strategies.push(...objectMutations(s, doc));
  if (s.type === "array" && s.items) {
    const bad = invalidArbitrary(s.items as JsonSchema, doc);
    if (bad) strategies.push(fc.array(bad, { minLength: 1, maxLength: 3 }));
  }
  return strategies.length > 0 ? fc.oneof(...strategies) : null;
}
