/**
 * GET /docs serves the application's rendered docs page (DOCS_HTML_PATH) with a CSP that lets
 * Redoc's inline scripts and styles run on that route only; a missing page is a 404 naming the
 * application's build hint.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDirectory } from "../src/testing/index.js";
import { expectError, type FixtureApp, startFixtureApp } from "./support/serve.js";
import { widgetApplication } from "./support/widget-app.js";

/** The CSP header as directive → sources. */
function csp(response: Response): Map<string, string[]> {
  const header = response.headers.get("content-security-policy") ?? "";
  return new Map(
    header
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name = "", ...sources]) => [name, sources]),
  );
}

const temp = scratchDirectory("engine-docs-");
const page = "<!DOCTYPE html><html><head><title>Docs</title><script>1</script></head></html>";
const pagePath = join(temp.dir, "index.html");
writeFileSync(pagePath, page);

describe("GET /docs", () => {
  let built: FixtureApp;
  let missing: FixtureApp;
  beforeAll(async () => {
    built = await startFixtureApp({ env: { DOCS_HTML_PATH: pagePath } });
    missing = await startFixtureApp({ env: { DOCS_HTML_PATH: join(temp.dir, "absent.html") } });
  });
  afterAll(async () => {
    await built?.close();
    await missing?.close();
    temp.remove();
  });

  it("answers the built page as HTML 200", async () => {
    const response = await fetch(`${built.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toBe(page);
  });

  it("lets inline scripts, inline styles, data: images and blob: workers run there only", async () => {
    const docs = csp(await fetch(`${built.url}/docs`));
    expect(docs.get("script-src")).toContain("'unsafe-inline'");
    expect(docs.get("style-src")).toContain("'unsafe-inline'");
    expect(docs.get("img-src")).toContain("data:");
    expect(docs.get("worker-src")).toContain("blob:");
    expect(docs.get("frame-ancestors")).toEqual(["'none'"]);
    const api = csp(await fetch(`${built.url}/healthz`));
    expect(api.get("default-src")).toEqual(["'none'"]);
    expect(api.has("script-src")).toBe(false);
  });

  it("is a 404 in the Error shape when the page has not been built", async () => {
    const body = await expectError(await fetch(`${missing.url}/docs`), 404, "not_found");
    expect(body.message).toContain(widgetApplication().names.docsBuildHint);
  });

  it("is read-only", async () => {
    const response = await fetch(`${built.url}/docs`, { method: "POST" });
    await expectError(response, 405, "method_not_allowed");
    expect(response.headers.get("allow")).toContain("GET");
  });
});
