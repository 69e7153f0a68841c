#!/usr/bin/env node
// Redoc's "API docs by" badge loads Redocly's logo from its CDN after the page starts, which the
// page's Content-Security-Policy (it loads nothing from anywhere) refuses: a console error, and a
// badge reading just "API docs by". This step of `pnpm run docs` points the badge at a wordmark
// inlined as a data: URL instead, so the attribution shows and nothing is fetched. It fails when
// Redoc no longer names the logo URL, so an upgrade that moves it is noticed.
import { readFileSync, writeFileSync } from "node:fs";

const [page] = process.argv.slice(2);
if (!page || page === "--help" || page === "-h") {
  process.stdout.write("Usage: node scripts/inline-logo.mjs <built page.html>\n");
  process.exit(page ? 0 : 2);
}

const wordmark = (width) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16"><text x="0" y="13" font-family="system-ui,sans-serif" font-size="13" font-weight="600" fill="#4b4b4b">Redocly</text></svg>`,
  )}`;
const LOGOS = {
  "https://cdn.redoc.ly/redoc/logo-mini-full.svg": wordmark(56),
  "https://cdn.redoc.ly/redoc/logo-mini.svg": wordmark(56),
};

let html = readFileSync(page, "utf8");
for (const [url, inline] of Object.entries(LOGOS)) {
  if (!html.includes(url)) {
    console.error(
      `${page}: Redoc no longer loads ${url}; update apps/docs/scripts/inline-logo.mjs`,
    );
    process.exit(1);
  }
  html = html.replaceAll(url, inline);
}
writeFileSync(page, html);
