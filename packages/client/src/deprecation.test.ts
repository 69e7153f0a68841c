import { describe, expect, it } from "vitest";
import { parseDeprecationDate, parseHttpDate } from "./deprecation.js";
import { OPERATIONS } from "./generated/operations.js";
import { operationIdOf } from "./operation-lookup.js";

describe("deprecation headers", () => {
  it("read RFC 9745 @seconds and older HTTP-dates", () => {
    expect(parseDeprecationDate("@1798761600")).toEqual(new Date("2027-01-01T00:00:00Z"));
    expect(parseDeprecationDate("Fri, 01 Jan 2027 00:00:00 GMT")).toEqual(
      new Date("2027-01-01T00:00:00Z"),
    );
    expect(parseDeprecationDate("true")).toBeUndefined();
    expect(parseDeprecationDate(null)).toBeUndefined();
  });

  it("read Sunset", () => {
    expect(parseHttpDate("Wed, 05 Dec 2029 00:00:00 GMT")).toEqual(new Date("2029-12-05Z"));
    expect(parseHttpDate("2030")).toBeUndefined();
    expect(parseHttpDate("Bad, 99 Foo 2030")).toBeUndefined();
  });
});

describe("operationIdOf", () => {
  it("names a call by the spec's operationId for its method and path template", () => {
    for (const { method, path, operationId } of OPERATIONS) {
      expect(operationIdOf(method, path)).toBe(operationId);
    }
  });

  it("falls back to method and template for what the spec does not list", () => {
    expect(operationIdOf("GET", "/not-in-the-spec/{id}")).toBe("GET /not-in-the-spec/{id}");
  });
});
