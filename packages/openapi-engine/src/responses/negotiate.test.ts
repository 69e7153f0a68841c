import { describe, expect, it } from "vitest";
import { compileAnswerTypes } from "./negotiate.js";

// A fixture operation's responses: JSON or CSV, an image, no content, ranges and default.
const spec: Record<string, unknown> = {
  NoContent: { description: "nothing" },
};
const types = compileAnswerTypes(
  {
    "200": {
      description: "the list",
      content: { "application/json": {}, "text/csv": {} },
    },
    "201": { description: "made", content: { "image/png": {} } },
    "202": { description: "an image of any type", content: { "image/*": {} } },
    "204": { $ref: "#/NoContent" },
    "304": { description: "not modified" },
    "4XX": { description: "error", content: { "application/problem+json": {} } },
    default: { description: "other", content: { "application/json": {} } },
  },
  (node) => {
    const ref = (node as { $ref?: string }).$ref;
    return ref === undefined ? node : spec[ref.slice(2)];
  },
);

describe("compileAnswerTypes", () => {
  it("writes no body for a response declared without content, whatever Accept says", () => {
    expect(types.answerType(204, "application/json")).toEqual({ body: false });
    expect(types.answerType(304, undefined)).toEqual({ body: false });
  });
  it("takes the first declared type without Accept or with */*", () => {
    for (const accept of [undefined, "", "*/*"]) {
      expect(types.answerType(200, accept)).toEqual({
        body: true,
        mediaType: "application/json",
        concrete: true,
      });
    }
  });
  it("follows the client's preference among the declared types", () => {
    expect(types.answerType(200, "text/csv")).toMatchObject({ mediaType: "text/csv" });
    expect(types.answerType(200, "application/json;q=0.5, text/csv")).toMatchObject({
      mediaType: "text/csv",
    });
    expect(types.answerType(200, "text/*")).toMatchObject({ mediaType: "text/csv" });
    expect(types.answerType(201, "image/*")).toMatchObject({ mediaType: "image/png" });
  });
  it("says when nothing declared is acceptable (406), listing what is", () => {
    expect(types.answerType(200, "application/xml")).toEqual({
      notAcceptable: true,
      available: ["application/json", "text/csv"],
    });
    expect(types.answerType(201, "application/json")).toMatchObject({ notAcceptable: true });
  });
  it("marks a declared range as not concrete", () => {
    expect(types.answerType(202, "*/*")).toEqual({
      body: true,
      mediaType: "image/*",
      concrete: false,
    });
  });
  it("takes a status's range, then default", () => {
    expect(types.answerType(404, undefined)).toMatchObject({
      mediaType: "application/problem+json",
    });
    expect(types.answerType(503, undefined)).toMatchObject({ mediaType: "application/json" });
  });
  it("answers the same for the same Accept again (cached)", () => {
    const first = types.answerType(200, "text/csv");
    expect(types.answerType(200, "text/csv")).toBe(first);
  });
});
