import { describe, expect, it } from "vitest";
import { API_META_NAME, contentSecurityPolicy, withApiUrl } from "./index-html.js";

const SOURCE = `<!doctype html><html><head>
    <meta charset="utf-8" />
    <title>Animal Store</title>
  </head><body></body></html>`;

describe("withApiUrl", () => {
  it("names the API in a meta tag, and allows only its origin to be called", () => {
    const html = withApiUrl(SOURCE, "http://127.0.0.1:4010/v1", true);
    expect(html).toContain(`<meta name="${API_META_NAME}" content="http://127.0.0.1:4010/v1" />`);
    expect(html).toContain("connect-src http://127.0.0.1:4010;");
    expect(html.indexOf("Content-Security-Policy")).toBeGreaterThan(html.indexOf("charset"));
  });

  it("points a built page at another API, replacing both tags", () => {
    const built = withApiUrl(SOURCE, "http://127.0.0.1:4010/v1", true);
    const moved = withApiUrl(built, "https://api.example/v1", true);
    expect(moved).not.toContain("4010");
    expect(moved.match(/animal-store-api/g)).toHaveLength(1);
    expect(moved.match(/Content-Security-Policy/g)).toHaveLength(1);
    expect(moved).toContain("connect-src https://api.example;");
  });

  it("goes without a CSP for the dev server, and escapes the address", () => {
    const html = withApiUrl(SOURCE, 'http://x.example/v1?"<', false);
    expect(html).not.toContain("Content-Security-Policy");
    expect(html).toContain('content="http://x.example/v1?&quot;&lt;"');
  });

  it("allows the page's own scripts and styles, and nothing inline or elsewhere", () => {
    const csp = contentSecurityPolicy("https://api.example/v1");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });
});
