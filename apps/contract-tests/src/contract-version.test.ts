import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  bumpBetween,
  bumpVersion,
  compareContractVersions,
  formatContractVersion,
  latestReleasedContract,
  listReleasedContracts,
  parseContractVersion,
  releasedFileName,
} from "./contract-version.js";

const dir = mkdtempSync(join(tmpdir(), "released-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("contract versions", () => {
  it("parses MAJOR.MINOR.PATCH and rejects anything else by name", () => {
    expect(parseContractVersion("10.2.3")).toEqual({ major: 10, minor: 2, patch: 3 });
    for (const bad of ["1.0", "v1.0.0", "1.0.0-beta", "01.0.0", ""]) {
      expect(() => parseContractVersion(bad)).toThrow(`"${bad}"`);
    }
  });

  it("orders numerically, not as text", () => {
    const v = parseContractVersion;
    expect(compareContractVersions(v("10.0.0"), v("9.9.9"))).toBeGreaterThan(0);
    expect(compareContractVersions(v("1.2.0"), v("1.10.0"))).toBeLessThan(0);
    expect(compareContractVersions(v("1.0.1"), v("1.0.1"))).toBe(0);
  });

  it("finds the newest released copy and ignores other files", () => {
    expect(() => latestReleasedContract(dir)).toThrow("no released contract");
    for (const name of [
      "openapi-1.0.0.json",
      "openapi-1.10.0.json",
      "openapi-1.9.3.json",
      "notes.txt",
    ]) {
      writeFileSync(join(dir, name), "{}");
    }
    expect(listReleasedContracts(dir).map((r) => r.version)).toEqual(["1.10.0", "1.9.3", "1.0.0"]);
    expect(latestReleasedContract(dir).path).toBe(join(dir, "openapi-1.10.0.json"));
    expect(releasedFileName("2.0.0")).toBe("openapi-2.0.0.json");
    expect(() => releasedFileName("2.0")).toThrow("not a MAJOR.MINOR.PATCH");
  });

  it("bumps as semver does, and names the bump between two versions", () => {
    const v = parseContractVersion;
    const bumped = (from: string, kind: "major" | "minor" | "patch") =>
      formatContractVersion(bumpVersion(v(from), kind));
    expect([bumped("1.2.3", "major"), bumped("1.2.3", "minor"), bumped("1.2.3", "patch")]).toEqual([
      "2.0.0",
      "1.3.0",
      "1.2.4",
    ]);
    expect(bumpBetween(v("1.2.3"), v("2.0.0"))).toBe("major");
    expect(bumpBetween(v("1.2.3"), v("1.3.0"))).toBe("minor");
    expect(bumpBetween(v("1.2.3"), v("1.2.9"))).toBe("patch");
  });
});
