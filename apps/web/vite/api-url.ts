/**
 * Which API the app talks to. The built files name it in one meta tag (see index-html.ts); the
 * default is where `pnpm mock` listens, read from the mock's own defaults and the spec's base path,
 * so nothing here restates a port or `/v1`.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basePathOf } from "@animal-store/mock/src/mock-spec.mjs";
import { parseMockCommand } from "@animal-store/mock/src/options.mjs";

const require = createRequire(import.meta.url);

/** The bundled contract (`pnpm bundle`), parsed. */
export function bundledSpec(): Record<string, unknown> {
  return JSON.parse(readFileSync(require.resolve("@animal-store/openapi/openapi.json"), "utf8"));
}

/** The address `pnpm mock` serves with no flag or variable, e.g. http://127.0.0.1:4010/v1. */
export function defaultMockApiUrl(): string {
  const command = parseMockCommand([], {});
  if (command.kind !== "run") throw new Error("the mock's defaults did not parse");
  const { host, port } = command.options;
  return `http://${host}:${port}${basePathOf(bundledSpec())}`;
}

/** `WEB_API_URL` checked (an http(s) URL, no query or fragment), or the mock's default address. */
export function apiUrlFromEnv(env: Record<string, string | undefined> = process.env): string {
  const raw = env.WEB_API_URL?.trim();
  if (!raw) return defaultMockApiUrl();
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {}
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
    throw new Error(
      `WEB_API_URL must be the API's http(s) base URL, e.g. http://127.0.0.1:8080/v1 (got "${raw}")`,
    );
  }
  return raw.replace(/\/+$/, "");
}
