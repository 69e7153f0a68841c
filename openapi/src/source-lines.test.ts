import { describe, expect, it } from "vitest";
import { place, sourceLines } from "./source-lines.js";

const text = [
  "info:", // 1
  "  version: 1.0.0", // 2
  "  description: |", // 3
  "    First line.", // 4
  "", // 5
  "    | Plan | Per minute |", // 6
  "  summary: One line", // 7
  "paths:", // 8
  "  /pets:", // 9
  "    get:", // 10
  "      tags: [pets, more]", // 11
].join("\n");

describe("sourceLines", () => {
  const lines = sourceLines(text);
  it("gives the line of a map entry's key, and of a sequence item", () => {
    expect(lines.lineOf(["info", "version"])).toBe(2);
    expect(lines.lineOf(["paths", "/pets", "get"])).toBe(10);
    expect(lines.lineOf(["paths", "/pets", "get", "tags", 1])).toBe(11);
  });
  it("falls back to the nearest ancestor that exists", () => {
    expect(lines.lineOf(["paths", "/pets", "post", "responses"])).toBe(9);
    expect(lines.lineOf([])).toBe(1);
  });
  it("maps the lines of a literal block to source lines, blank lines included", () => {
    expect(lines.lineOfText(["info", "description"], 0)).toBe(4);
    expect(lines.lineOfText(["info", "description"], 2)).toBe(6);
    expect(lines.lineOfText(["info", "summary"], 0)).toBe(7);
  });
  it("writes a place as file:line, relative to the working directory", () => {
    expect(place(`${process.cwd()}/openapi.yaml`, 12)).toBe("openapi.yaml:12");
    expect(place("/elsewhere/openapi.yaml", 3)).toBe("/elsewhere/openapi.yaml:3");
  });
});
