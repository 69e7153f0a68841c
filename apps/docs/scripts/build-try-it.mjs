#!/usr/bin/env node
// The try-it console: a second self-contained page, dist/try.html, next to the Redoc page (which
// stays the published reference and has no console). Scalar's API reference (its standalone
// browser bundle, inlined) over the bundled contract (inlined): pick a server, fill in the bearer
// key, send any operation and read the answer. On a running server (`/docs/try`) the engine lists
// that server first, so requests go to the origin serving the page (its CSP allows only that);
// opened from disk it lists the contract's servers. Nothing is fetched: no CDN, no fonts (the
// system's), no proxy, no telemetry.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const HELP = "Usage: node scripts/build-try-it.mjs <out.html>\n";
const [out] = process.argv.slice(2);
if (!out || out === "--help" || out === "-h") {
  process.stdout.write(HELP);
  process.exit(out ? 0 : 2);
}

const require = createRequire(import.meta.url);
const spec = JSON.parse(
  readFileSync(require.resolve("@animal-store/openapi/openapi.json"), "utf8"),
);
const scalar = readFileSync(require.resolve("@scalar/api-reference/browser/standalone.js"), "utf8");
// Inline <script> text must neither close its element early nor enter the HTML parser's escaped
// states: every "<" that could start "</script", "<script" or "<!--" is written \x3C, which
// means "<" wherever it can stand in JavaScript (strings, templates, regular expressions); in
// the JSON every "<" is \u003c.
const inlineJs = (text) => text.replace(/<(\/?script|!--)/gi, "\\x3C$1");
const inlineJson = (value) => JSON.stringify(value).replace(/</g, "\\u003c");
const escapeHtml = (text) =>
  String(text).replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c],
  );
const scheme = Object.keys(spec.components?.securitySchemes ?? {})[0];

const config = {
  withDefaultFonts: false,
  hideClientButton: true,
  documentDownloadType: "none",
  showDeveloperTools: "never",
  telemetry: false,
  agent: { disabled: true },
  persistAuth: false,
  ...(scheme ? { authentication: { preferredSecurityScheme: scheme } } : {}),
};

const html = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <!-- Self-contained: requests go only to the page's own origin (the server serving it). -->
  <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; connect-src 'self'; worker-src blob:; base-uri 'none'; form-action 'none'">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(spec.info?.title ?? "API")}: try it</title>
</head>
<body>
  <div id="app"></div>
  <script id="contract" type="application/json">${inlineJson(spec)}</script>
  <script>${inlineJs(scalar)}</script>
  <script>
    Scalar.createApiReference("#app", Object.assign(${JSON.stringify(config)}, {
      content: JSON.parse(document.getElementById("contract").textContent),
    }));
  </script>
</body>
</html>
`;
writeFileSync(out, html);
