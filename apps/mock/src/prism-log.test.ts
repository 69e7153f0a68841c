import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { formatPrismLogLine, prismLogDestination } from "./prism-log.mjs";

describe("formatPrismLogLine", () => {
  it("shows level, source, request and message on one line", () => {
    const line = JSON.stringify({
      level: 50,
      name: "HTTP SERVER",
      input: { method: "get", url: { path: "/pets" } },
      msg: "Request terminated with error",
    });
    expect(formatPrismLogLine(line)).toBe(
      "[mock] error [HTTP SERVER] GET /pets: Request terminated with error",
    );
  });

  it("names Prism's own success level and leaves non-JSON alone", () => {
    expect(formatPrismLogLine(JSON.stringify({ level: 32, msg: "ok" }))).toBe("[mock] success: ok");
    expect(formatPrismLogLine("plain text")).toBeNull();
  });
});

describe("prismLogDestination", () => {
  it("writes each line of a chunk formatted", () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
    prismLogDestination(out).write(`${JSON.stringify({ level: 40, msg: "a" })}\nraw\n`);
    expect(chunks.join("")).toBe("[mock] warn: a\nraw\n");
  });
});
