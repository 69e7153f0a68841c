import { describe, expect, it } from "vitest";
import { linksBesidesNext, linksWithRel, nextLinkTarget, parseLinks } from "./links.js";

describe("Link values (RFC 8288)", () => {
  it("reads the next link alone, among others, and its absence", () => {
    expect(nextLinkTarget('<?limit=2&cursor=abc>; rel="next"')).toBe("?limit=2&cursor=abc");
    const both = '</things/{id}>; rel="successor-version", <?limit=2&cursor=a_b-c>; rel="next"';
    expect(nextLinkTarget(both)).toBe("?limit=2&cursor=a_b-c");
    expect(linksBesidesNext(both)).toEqual(['</things/{id}>; rel="successor-version"']);
    expect(nextLinkTarget('</things>; rel="successor-version"')).toBeUndefined();
    expect(nextLinkTarget(null)).toBeUndefined();
    expect(parseLinks("")).toEqual([]);
  });

  it("takes unquoted, several and upper-case relation types, and commas inside a target", () => {
    const value = '<a,b>; REL=next; title="x, y", <c>;rel="prev   start"';
    expect(parseLinks(value)).toEqual([
      { target: "a,b", rels: ["next"], params: { rel: "next", title: "x, y" } },
      { target: "c", rels: ["prev", "start"], params: { rel: "prev   start" } },
    ]);
    expect(linksWithRel(value, "start").map((link) => link.target)).toEqual(["c"]);
  });

  it("refuses what is not a Link value, and two next links", () => {
    expect(() => parseLinks("?cursor=abc")).toThrow(/not an RFC 8288 Link value/);
    expect(() => parseLinks("<a>; rel=next junk")).toThrow(/not an RFC 8288 Link value/);
    expect(() => nextLinkTarget('<a>; rel="next", <b>; rel="next"')).toThrow(/several/);
  });
});
