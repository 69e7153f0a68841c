#!/usr/bin/env node
// Measures what the client adds to a browser bundle: dist/index.js bundled with openapi-fetch for
// the browser, minified, as ESM, then gzipped. Run `pnpm build` first.
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/** Bundles the built client for browsers: the code, its sizes in bytes and the bundled inputs. */
export async function measureBundle() {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("../dist/index.js", import.meta.url))],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return {
    code,
    minified: code.byteLength,
    gzipped: gzipSync(code, { level: 9 }).byteLength,
    inputs: Object.keys(result.metafile.inputs),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { minified, gzipped } = await measureBundle();
  console.log(
    `@animal-store/client (with openapi-fetch), browser ESM: ${minified} B minified, ${gzipped} B min+gzip`,
  );
}
