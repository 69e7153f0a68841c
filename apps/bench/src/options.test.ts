import { describe, expect, it } from "vitest";
import { wholeNumberOption } from "./options.js";

describe("wholeNumberOption", () => {
  it("reads a whole number above 0, and nothing when the option is absent", () => {
    expect(wholeNumberOption("rounds", "4")).toBe(4);
    expect(wholeNumberOption("pair-seconds", "12")).toBe(12);
    expect(wholeNumberOption("rounds", undefined)).toBeUndefined();
  });

  it("refuses what would make a run of nothing, naming the option and the value", () => {
    for (const value of ["0", "-1", "1.5", "abc", "", " 3", "3s", "1e2", "007"]) {
      expect(() => wholeNumberOption("rounds", value), value).toThrow(
        `--rounds takes a whole number above 0, not "${value}"`,
      );
    }
  });
});
