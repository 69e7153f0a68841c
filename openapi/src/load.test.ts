import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bundledSpecPath, loadBundledSpec, readSpec } from "./load.js";

describe("loadBundledSpec", () => {
  it("reads dist/openapi.json once and parses it", () => {
    const loaded = loadBundledSpec();
    expect(loaded.text).toBe(readFileSync(bundledSpecPath, "utf8"));
    expect(loaded.spec).toEqual(JSON.parse(loaded.text));
    expect(loadBundledSpec()).toBe(loaded);
  });

  it("says which file is missing and how to make it", () => {
    expect(() => readSpec("/nonexistent/openapi.json")).toThrow(
      /\/nonexistent\/openapi\.json: it does not exist \(run pnpm bundle\)/,
    );
  });
});
