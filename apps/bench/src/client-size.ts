/**
 * What the client costs a frontend to ship: its entry bundled with everything it imports
 * (openapi-fetch included), minified by esbuild, then gzipped.
 */
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/** Bundle sizes in bytes. */
export interface ClientSize {
  minifiedBytes: number;
  gzipBytes: number;
  /** The client alone, openapi-fetch left out as a shared dependency. */
  ownGzipBytes: number;
}

async function bundle(entry: string, external: string[]): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    external,
    write: false,
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error("esbuild produced no output for the client");
  return output.contents;
}

/** Measures @animal-store/client's built entry as a browser bundle would include it. */
export async function measureClientSize(): Promise<ClientSize> {
  const entry = createRequire(import.meta.url).resolve("@animal-store/client");
  const whole = await bundle(entry, []);
  const own = await bundle(entry, ["openapi-fetch"]);
  return {
    minifiedBytes: whole.byteLength,
    gzipBytes: gzipSync(whole, { level: 9 }).byteLength,
    ownGzipBytes: gzipSync(own, { level: 9 }).byteLength,
  };
}
