/**
 * The planted-fault runner's arguments: `--help` prints the usage and plants nothing; an unknown
 * option or an index past the list is refused with exit code 2 before anything is planted.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type PlantedFault, runPlantedFaults, USAGE } from "./planted-faults.js";

const dir = mkdtempSync(join(tmpdir(), "planted-faults-"));
const file = join(dir, "a.ts");
writeFileSync(file, "export const a = 1;\n");
const faults: PlantedFault[] = [["a changed", "a.ts", "= 1", "= 2", "a.test.ts", ""]];

afterEach(() => vi.restoreAllMocks());
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

describe("runPlantedFaults", () => {
  it("prints the usage for --help and -h, and plants nothing", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    expect(runPlantedFaults(faults, dir, ["--help"])).toBe(0);
    expect(runPlantedFaults(faults, dir, ["-h", "0"])).toBe(0);
    expect(log.mock.calls).toEqual([[USAGE], [USAGE]]);
    expect(readFileSync(file, "utf8")).toBe("export const a = 1;\n");
  });

  it("refuses an unknown option or an index past the list, with exit code 2", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(runPlantedFaults(faults, dir, ["--chek"])).toBe(2);
    expect(runPlantedFaults(faults, dir, ["7"])).toBe(2);
    expect(error.mock.calls.map((call) => String(call[0]))).toEqual([
      expect.stringContaining("--chek"),
      expect.stringContaining("no fault 7"),
    ]);
    expect(readFileSync(file, "utf8")).toBe("export const a = 1;\n");
  });

  it("checks each fault's text without planting it", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    expect(runPlantedFaults(faults, dir, ["--check"])).toBe(0);
    expect(String(log.mock.calls[0]?.[0])).toContain("its text is in a.ts");
    expect(readFileSync(file, "utf8")).toBe("export const a = 1;\n");
  });
});
