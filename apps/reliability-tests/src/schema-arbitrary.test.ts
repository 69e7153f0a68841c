import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonNumberLiteral, toJsonText, withOwnProperty } from "./json-text.js";
import { validArbitrary } from "./schema-arbitrary.js";
import { invalidArbitrary } from "./schema-mutations.js";
import { type JsonSchema, listOperations, loadSpec } from "./spec.js";
import { createSpecValidator } from "./spec-validator.js";

const doc = loadSpec();
const validator = createSpecValidator(doc);

/** Every schema the suites generate requests from: components, parameters, request bodies. */
function generatedSchemas(): [string, JsonSchema][] {
  const out: [string, JsonSchema][] = Object.keys(doc.components.schemas ?? {}).map((name) => [
    name,
    { $ref: `#/components/schemas/${name}` },
  ]);
  for (const op of listOperations(doc)) {
    for (const p of op.parameters) out.push([`${op.operationId} ${p.in} ${p.name}`, p.schema]);
    if (op.requestBody) out.push([`${op.operationId} body`, op.requestBody.schema]);
  }
  return out;
}

/** What the server sees: the value after a trip through JSON text. */
const overTheWire = (value: unknown): unknown => JSON.parse(toJsonText(value));

describe("schema → arbitrary converter, checked by Ajv against the bundled spec", () => {
  it("covers every schema of the contract", () => {
    const names = generatedSchemas().map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(["NewPet", "Pet", "Error", "createPet body"]));
    expect(names.some((n) => n.startsWith("listPets query"))).toBe(true);
  });

  for (const [name, schema] of generatedSchemas()) {
    it(`${name}: generated valid values validate`, () => {
      fc.assert(
        fc.property(validArbitrary(schema, doc), (value) => {
          expect(validator.validate(schema, overTheWire(value))).toEqual([]);
        }),
        { numRuns: 200 },
      );
    });

    it(`${name}: generated invalid values fail validation`, () => {
      const invalid = invalidArbitrary(schema, doc);
      expect(invalid).not.toBeNull();
      if (!invalid) return;
      fc.assert(
        fc.property(invalid, (value) => {
          expect(validator.validate(schema, overTheWire(value))).not.toEqual([]);
        }),
        { numRuns: 200 },
      );
    });
  }

  it("refuses keywords and patterns it does not understand instead of guessing", () => {
    expect(() => validArbitrary({ type: "string", format: "date-time" }, doc)).toThrow(/format/);
    expect(() => validArbitrary({ oneOf: [{ type: "string" }] }, doc)).toThrow(/oneOf/);
    expect(() => validArbitrary({ type: "string", pattern: "^@[0-9]+$" }, doc)).toThrow(/pattern/);
    expect(() => validArbitrary({ $ref: "#/components/schemas/Nope" }, doc)).toThrow(
      /points at nothing/,
    );
  });

  it("reaches the hostile corners: ids beyond 2^53, prototype keys, control characters", () => {
    const seen = { beyondSafe: false, protoKey: false, control: false };
    const petId = invalidArbitrary({ $ref: "#/components/schemas/PetId" }, doc);
    const newPet = invalidArbitrary({ $ref: "#/components/schemas/NewPet" }, doc);
    if (!petId || !newPet) throw new Error("no invalid arbitrary");
    for (const v of fc.sample(petId, 2000)) {
      if (v instanceof JsonNumberLiteral && BigInt(v.text.split("e")[0] ?? "0") > 2n ** 53n) {
        seen.beyondSafe = true;
      }
    }
    for (const v of fc.sample(newPet, 3000)) {
      if (v && typeof v === "object" && Object.hasOwn(v, "__proto__")) seen.protoKey = true;
      // JSON.stringify escapes control characters as \uXXXX or \n, \t, ...
      if (/\\u00[01][0-9a-f]|\\[bfnrt]/i.test(toJsonText(v))) seen.control = true;
    }
    expect(seen).toEqual({ beyondSafe: true, protoKey: true, control: true });
  });
});

describe("toJsonText", () => {
  it("writes big literals verbatim and __proto__ as an own key", () => {
    const body = withOwnProperty({ id: new JsonNumberLiteral("9007199254740993") }, "__proto__", 1);
    expect(toJsonText(body)).toBe('{"id":9007199254740993,"__proto__":1}');
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  });

  it("rejects what JSON cannot carry", () => {
    expect(() => new JsonNumberLiteral("0x10")).toThrow();
    expect(() => toJsonText(undefined)).toThrow();
  });
});
