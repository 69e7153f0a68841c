import { describe, expect, it } from "vitest";
import { datePart, proseDates } from "./prose-dates.js";
import { lineInSentence, proseNumber, proseTables, sentences } from "./prose-text.js";

const text = [
  "## Limits", // 0
  "", // 1
  "Each key belongs to a plan. Keys without", // 2
  "a plan are counted on the Free plan.", // 3
  "", // 4
  "| Plan | Requests per minute |", // 5
  "|---|---|", // 6
  "| Free | 1,000 |", // 7
  "| `Pro` | custom (set per key) |", // 8
  "", // 9
  "Removed on 5 December 2029 (2029-12-05).", // 10
].join("\n");

describe("prose of info.description", () => {
  it("reads tables row by row, with each row's text line, backticks dropped", () => {
    const [table] = proseTables(text);
    expect(table?.header).toEqual(["Plan", "Requests per minute"]);
    expect(table?.line).toBe(5);
    expect(table?.rows).toEqual([
      { cells: ["Free", "1,000"], line: 7 },
      { cells: ["Pro", "custom (set per key)"], line: 8 },
    ]);
  });
  it("splits paragraphs into sentences with the line each starts on, leaving tables out", () => {
    const found = sentences(text);
    expect(found.map((s) => [s.text, s.line])).toEqual([
      ["Each key belongs to a plan.", 2],
      ["Keys without a plan are counted on the Free plan.", 2],
      ["Removed on 5 December 2029 (2029-12-05).", 10],
    ]);
    const second = found[1];
    if (!second) throw new Error("no second sentence");
    expect(lineInSentence(second, second.raw.indexOf("Free"))).toBe(3);
  });
  it("reads numbers as prose writes them, and nothing else", () => {
    expect(proseNumber("1,000")).toBe(1000);
    expect(proseNumber(" 60 ")).toBe(60);
    expect(proseNumber("custom")).toBeUndefined();
    expect(proseNumber("60/min")).toBeUndefined();
  });
  it("finds dates written either way, with their line", () => {
    expect(proseDates(text)).toEqual([
      { date: "2029-12-05", written: "2029-12-05", line: 10 },
      { date: "2029-12-05", written: "5 December 2029", line: 10 },
    ]);
    expect(proseDates("on 1 june 2032")[0]?.date).toBe("2032-06-01");
    expect(datePart("2029-12-05T12:00:00Z")).toBe("2029-12-05");
  });
});
