#!/usr/bin/env node
// @ts-check
// What the built app costs a visitor: every JavaScript and CSS file of dist/assets, minified as
// Vite wrote them, gzipped at level 9. Fails (exit 1) when the JavaScript is over the budget.
// Run `pnpm --filter @animal-store/web build` first.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** The JavaScript budget, gzipped, in bytes (100 KiB). */
export const JS_BUDGET_BYTES = 100 * 1024;

/** Sizes of the built assets: per file, and the JavaScript and CSS totals (raw and gzipped). */
export function measureBuild(distDir = fileURLToPath(new URL("../dist", import.meta.url))) {
  const assets = `${distDir}/assets`;
  const files = readdirSync(assets)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => {
      const code = readFileSync(`${assets}/${name}`);
      return { name, bytes: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
    });
  const total = (/** @type {string} */ ext) => {
    const own = files.filter((f) => f.name.endsWith(ext));
    return {
      bytes: own.reduce((sum, f) => sum + f.bytes, 0),
      gzipped: own.reduce((sum, f) => sum + f.gzipped, 0),
    };
  };
  return { files, js: total(".js"), css: total(".css") };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { files, js, css } = measureBuild();
  const kib = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} KiB`;
  for (const f of files)
    console.log(`${f.name}: ${kib(f.bytes)} minified, ${kib(f.gzipped)} gzipped`);
  console.log(
    `JavaScript: ${kib(js.gzipped)} gzipped (budget ${kib(JS_BUDGET_BYTES)}); CSS: ${kib(css.gzipped)} gzipped`,
  );
  if (js.gzipped > JS_BUDGET_BYTES) process.exit(1);
}
