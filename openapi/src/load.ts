/**
 * Loading the bundled contract: `openapi/dist/openapi.json`, written by `pnpm bundle`. Every
 * package reads the contract through here, so there is one place that knows where it lives.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { OpenApiDocument } from "./document.js";

/** Absolute path of the bundled contract (JSON). */
export const bundledSpecPath = fileURLToPath(new URL("../dist/openapi.json", import.meta.url));

/** A contract as text and parsed. */
export interface LoadedSpec {
  text: string;
  spec: OpenApiDocument;
}

/** Reads and parses a bundled contract at `path` (a scratch copy, a released version...). */
export function readSpec(path: string): LoadedSpec {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : err;
    throw new Error(`cannot read the bundled spec at ${path}: ${String(reason)} (run pnpm bundle)`);
  }
  return { text, spec: JSON.parse(text) as OpenApiDocument };
}

let cached: LoadedSpec | undefined;

/** The bundled contract, read once per process. */
export function loadBundledSpec(): LoadedSpec {
  cached ??= readSpec(bundledSpecPath);
  return cached;
}
