/**
 * The one place the server reaches into express-openapi-validator's build: every member it uses
 * is there in the pinned version, and an upgrade that moves one fails with its name, all at once.
 */
import { describe, expect, it } from "vitest";
import { checkEovMembers, EOV_MEMBERS, loadEov } from "./eov-adapter.js";

describe("express-openapi-validator adapter", () => {
  it("finds every member the server drives in the installed version", () => {
    const eov = loadEov();
    expect(EOV_MEMBERS.length).toBeGreaterThan(5);
    for (const name of EOV_MEMBERS) expect(typeof eov[name], name).toBe("function");
    expect(loadEov()).toBe(eov);
  });

  it("names every member an upgrade moved, not only the first", () => {
    const { RequestValidator, BadRequest, ...rest } = loadEov() as unknown as Record<
      string,
      unknown
    >;
    void RequestValidator;
    void BadRequest;
    expect(() => checkEovMembers(rest)).toThrow(
      "express-openapi-validator no longer provides RequestValidator, BadRequest",
    );
  });

  it("names a method an upgrade renamed on a class it drives", () => {
    const members = { ...(loadEov() as unknown as Record<string, unknown>) };
    class Renamed {
      buildValidators() {}
    }
    members.ResponseValidator = Renamed;
    expect(() => checkEovMembers(members)).toThrow(
      "express-openapi-validator no longer provides ResponseValidator.prototype._validate",
    );
  });
});
