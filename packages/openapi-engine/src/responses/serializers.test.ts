import { deref, isJsonObject } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import { compileContract } from "../contract/contract.js";
import { compileSerializer, type Serializer } from "./serializers.js";

const contract = compileContract(loadFixture());
/** Every documented response of every operation, with its serializer. */
const responses = contract.operations.flatMap((op) =>
  op.responses.map((response) => ({
    op,
    response,
    serialize: compileSerializer(contract.spec, response),
  })),
);

/** Every named example of every documented JSON response, with its serializer. */
const examples = responses.flatMap(({ op, response, serialize }) => {
  const media = response.content["application/json"];
  const named = isJsonObject(media?.examples) ? Object.entries(media.examples) : [];
  return named.map(([name, example]) => ({
    where: `${op.operationId} ${response.status} ${name}`,
    serialize: serialize as Serializer,
    value: deref<{ value: unknown }>(contract.spec, example).value,
  }));
});

/** `value` with every string made harder to write (quotes, escapes, non-ASCII, astral). */
function tricky(value: unknown): unknown {
  if (typeof value === "string") return `${value} "q" \\ \u00e9\u{1f436}\n`;
  if (Array.isArray(value)) return value.map(tricky);
  if (isJsonObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tricky(v)]));
  }
  return value;
}

describe("compileSerializer", () => {
  it("compiles one for every documented JSON response of every operation, none without", () => {
    for (const { op, response, serialize } of responses) {
      const where = `${op.operationId} ${response.status}`;
      expect(serialize !== undefined, where).toBe(
        response.content["application/json"] !== undefined,
      );
    }
  });

  it("writes what JSON.stringify writes for every example of the contract, hard strings too", () => {
    expect(examples.length).toBeGreaterThan(0);
    for (const { where, serialize, value } of examples) {
      expect(serialize(value), where).toBe(JSON.stringify(value));
      expect(serialize(tricky(value)), where).toBe(JSON.stringify(tricky(value)));
    }
  });

  it("never writes a property the contract does not declare", () => {
    const objects = examples.filter(({ value }) => isJsonObject(value));
    expect(objects.length).toBeGreaterThan(0);
    for (const { where, serialize, value } of objects) {
      const leaky = { ...(value as object), internalNoteNotInTheContract: "secret" };
      expect(serialize(leaky), where).toBe(JSON.stringify(value));
    }
  });
});
