import { type Item, parseList, serializeList } from "structured-headers";
import { describe, expect, it } from "vitest";
import {
  POLICY_NAMES,
  policyField,
  SF_INTEGER_MAX,
  serializePolicy,
  serviceLimitField,
} from "./ietf-fields.js";

const item = (name: string, params: Array<[string, number]>): Item => [name, new Map(params)];

describe("the RateLimit value", () => {
  it.each([
    [0, 0, 0, 0],
    [59, 45, 999, 52_185],
    [1, 60, 1, 86_400],
    [SF_INTEGER_MAX, 1, SF_INTEGER_MAX, 1],
  ])("r=%i;t=%i and r=%i;t=%i is the library's serialization of the same List", (a, b, c, d) => {
    const expected = serializeList([
      item(POLICY_NAMES.minute, [
        ["r", a],
        ["t", b],
      ]),
      item(POLICY_NAMES.day, [
        ["r", c],
        ["t", d],
      ]),
    ]);
    expect(serviceLimitField(a, b, c, d)).toBe(expected);
    expect(parseList(serviceLimitField(a, b, c, d))).toEqual(parseList(expected));
  });

  it("never writes an integer RFC 9651 cannot carry", () => {
    const field = serviceLimitField(Number.MAX_SAFE_INTEGER, 1, Number.MAX_SAFE_INTEGER, 1);
    expect(() => parseList(field)).not.toThrow();
  });
});

describe("the RateLimit-Policy value", () => {
  it("states the minute and the day window with their quotas", () => {
    expect(parseList(serializePolicy({ perMinute: 30, perDay: 400 }))).toEqual([
      item("minute", [
        ["q", 30],
        ["w", 60],
      ]),
      item("day", [
        ["q", 400],
        ["w", 86_400],
      ]),
    ]);
  });

  it("is serialized once per limits object", () => {
    const limits = { perMinute: 7, perDay: 70 };
    const first = policyField(limits);
    limits.perMinute = 8;
    // The same object: the cached value (limits never change in place in the engine).
    expect(policyField(limits)).toBe(first);
    expect(policyField({ ...limits })).toBe(serializePolicy({ perMinute: 8, perDay: 70 }));
  });
});
