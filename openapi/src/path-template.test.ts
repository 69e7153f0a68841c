import { describe, expect, it } from "vitest";
import { pathTemplatePattern } from "./path-template.js";

describe("pathTemplatePattern", () => {
  it("captures each parameter in order and tolerates a trailing slash", () => {
    const { pattern, names } = pathTemplatePattern("/stores/{storeId}/pets/{petId}");
    expect(names).toEqual(["storeId", "petId"]);
    expect(pattern.exec("/stores/7/pets/42/")?.slice(1)).toEqual(["7", "42"]);
  });

  it("matches literal text exactly, case-sensitively, regex characters included", () => {
    const { pattern } = pathTemplatePattern("/a.b/{id}");
    expect(pattern.test("/a.b/1")).toBe(true);
    expect(pattern.test("/aXb/1")).toBe(false);
    expect(pattern.test("/A.b/1")).toBe(false);
  });

  it("takes parameters inside a segment and never lets one span a slash or be empty", () => {
    const { pattern, names } = pathTemplatePattern("/files/{name}.{ext}");
    expect(names).toEqual(["name", "ext"]);
    expect(pattern.exec("/files/report.final.pdf")?.slice(1)).toEqual(["report.final", "pdf"]);
    expect(pattern.test("/files/a/b.pdf")).toBe(false);
    expect(pathTemplatePattern("/pets/{petId}").pattern.test("/pets/")).toBe(false);
  });
});
