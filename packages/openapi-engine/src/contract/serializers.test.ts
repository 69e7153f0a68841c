import { deref, isJsonObject, loadBundledSpec } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { compileContract } from "./contract.js";
import { compileResponseSerializers, serializerKey } from "./serializers.js";

const contract = compileContract(loadBundledSpec());
const serializers = compileResponseSerializers(contract);

/** Every named example of every documented JSON response, with its serializer's key. */
const examples = contract.operations.flatMap((op) =>
  op.responses.flatMap((response) => {
    const media = response.content["application/json"];
    const named = isJsonObject(media?.examples) ? Object.entries(media.examples) : [];
    return named.map(([name, example]) => ({
      where: `${op.operationId} ${response.status} ${name}`,
      key: serializerKey(op.operationId, response.status),
      value: deref<{ value: unknown }>(contract.spec, example).value,
    }));
  }),
);

/** `value` with every string made harder to write (quotes, escapes, non-ASCII, astral). */
function tricky(value: unknown): unknown {
  if (typeof value === "string") return `${value} "q" \\ \u00e9\u{1f436}\n`;
  if (Array.isArray(value)) return value.map(tricky);
  if (isJsonObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tricky(v)]));
  }
  return value;
}

describe("compileResponseSerializers", () => {
  it("has a serializer for every documented JSON response of every operation", () => {
    for (const op of contract.operations) {
      for (const response of op.responses) {
        if (!response.content["application/json"]) continue;
        const key = serializerKey(op.operationId, response.status);
        expect(serializers.has(key), key).toBe(true);
      }
    }
  });

  it("writes what JSON.stringify writes for every example of the contract, hard strings too", () => {
    expect(examples.length).toBeGreaterThan(0);
    for (const { where, key, value } of examples) {
      const serialize = serializers.get(key);
      expect(serialize?.(value), where).toBe(JSON.stringify(value));
      expect(serialize?.(tricky(value)), where).toBe(JSON.stringify(tricky(value)));
    }
  });

  it("never writes a property the contract does not declare", () => {
    const objects = examples.filter(({ value }) => isJsonObject(value));
    expect(objects.length).toBeGreaterThan(0);
    for (const { where, key, value } of objects) {
      const leaky = { ...(value as object), internalNoteNotInTheContract: "secret" };
      expect(serializers.get(key)?.(leaky), where).toBe(JSON.stringify(value));
    }
  });
});
