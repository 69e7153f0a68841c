import { describe, expect, it } from "vitest";
import { parseDeprecationDate, parseHttpDate } from "./deprecation.js";
import { basePathOf, operationOf } from "./operation-lookup.js";

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

describe("operationOf", () => {
  it("names requests by operationId under any base path", () => {
    const base = basePathOf("http://127.0.0.1:8080/api/");
    expect(base).toBe("/api");
    expect(operationOf("GET", "http://127.0.0.1:8080/api/pets?limit=5", base)).toBe("listPets");
    expect(operationOf("POST", "http://127.0.0.1:8080/api/pets", base)).toBe("createPet");
    expect(operationOf("GET", "http://127.0.0.1:8080/api/pets/42", base)).toBe("getPet");
    expect(operationOf("GET", "http://h/pets/42", basePathOf("http://h"))).toBe("getPet");
  });

  it("falls back to method and path for what the spec does not list", () => {
    const base = basePathOf("http://h/api");
    expect(operationOf("DELETE", "http://h/api/pets/42", base)).toBe("DELETE /pets/42");
    expect(operationOf("GET", "http://h/api/pets/42/toys", base)).toBe("GET /pets/42/toys");
    expect(operationOf("GET", "http://h/api2/pets", base)).toBe("GET /api2/pets");
  });
});
