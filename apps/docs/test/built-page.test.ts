// The built page on its own, without a browser: self-contained and locked down.
import { describe, expect, it } from "vitest";
import { builtPage, spec } from "./page.js";

const html = builtPage();

describe("the built docs page", () => {
  it("is titled after the API", () => {
    expect(html).toContain(`<title>${spec.info.title}</title>`);
  });

  it("declares a Content-Security-Policy that lets it load nothing from anywhere", () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(csp).toBeDefined();
    const directives = new Map(
      (csp ?? "").split(";").map((d) => {
        const [name = "", ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives.get("default-src")).toEqual(["'none'"]);
    expect(directives.get("connect-src")).toEqual(["'none'"]);
    for (const [name, values] of directives) {
      for (const value of values) expect(value, name).not.toMatch(/^(https?:|\*|'self')/);
    }
  });

  it("references no external script, stylesheet or font", () => {
    expect(html).not.toMatch(/<script[^>]+\bsrc=/i);
    expect(html).not.toMatch(/<link[^>]+\bhref="?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import\s+url\(\s*["']?https?:/i);
    expect(html).not.toMatch(/@font-face[^}]*url\(\s*["']?https?:/i);
  });

  it("embeds the Redoc bundle and the spec", () => {
    expect(html.length).toBeGreaterThan(500_000);
    expect(html).toContain(JSON.stringify(spec.info.title));
  });
});
