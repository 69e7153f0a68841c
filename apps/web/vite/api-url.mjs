// @ts-check
// Which API the app talks to. The built files name it in one meta tag (see index-html.ts); the
// default is where `pnpm mock` listens, read from the mock's own defaults and the spec's base path,
// so nothing here restates a port or `/v1`. Plain JavaScript: `pnpm web` (scripts/web.mjs) runs
// it without a build step, and the Vite config imports it.

import { parseMockCommand } from "@animal-store/mock/src/options.mjs";
import { basePathOf, loadBundledSpec } from "@animal-store/openapi";

/**
 * The bundled contract (`pnpm bundle`), parsed.
 * @returns {Record<string, any>}
 */
export function bundledSpec() {
  return loadBundledSpec().spec;
}

/**
 * Where `pnpm mock` serves given `env` (MOCK_HOST, MOCK_PORT), e.g. http://127.0.0.1:4010/v1.
 * @param {Record<string, string | undefined>} [env]
 */
export function mockApiUrl(env = {}) {
  const command = parseMockCommand([], env);
  if (command.kind !== "run") {
    throw new Error(
      command.kind === "error" ? command.message : "the mock's options did not parse",
    );
  }
  const { host, port } = command.options;
  return `http://${host}:${port}${basePathOf(loadBundledSpec().spec)}`;
}

/**
 * `WEB_API_URL` checked (an http(s) URL, no query or fragment), or the mock's default address.
 * @param {Record<string, string | undefined>} env
 */
export function apiUrlFromEnv(env) {
  const raw = env.WEB_API_URL?.trim();
  if (!raw) return mockApiUrl();
  /** @type {URL | undefined} */
  let url;
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
