/**
 * The API address in the app's index.html: a meta tag the app reads at start, and the
 * Content-Security-Policy whose `connect-src` lets the page call that origin and no other. One
 * function writes both, at build time (the Vite plugin) and when a built index.html is deployed
 * against another API (tests serve one build against the mock and the real server).
 */

/** The meta tag's name; the app reads its `content`. */
export const API_META_NAME = "animal-store-api";

const API_META = new RegExp(`<meta name="${API_META_NAME}" content="[^"]*"\\s*/?>`);
const CSP_META = /<meta http-equiv="Content-Security-Policy" content="[^"]*"\s*\/?>/;

/**
 * The page's policy: its own scripts and styles, the API origin for fetch, nothing else (no
 * inline script, no third-party origin, no plugin, no form posting elsewhere).
 */
export function contentSecurityPolicy(apiUrl: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${new URL(apiUrl).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/**
 * Points an index.html at `apiUrl`: sets (or adds) the API meta tag and, when `withCsp`, the CSP
 * meta tag. The dev server goes without the CSP (Vite's hot reload injects inline scripts).
 */
export function withApiUrl(html: string, apiUrl: string, withCsp: boolean): string {
  const apiMeta = `<meta name="${API_META_NAME}" content="${escapeAttribute(apiUrl)}" />`;
  const cspMeta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(apiUrl))}" />`;
  let out = API_META.test(html)
    ? html.replace(API_META, apiMeta)
    : html.replace("</title>", `</title>\n    ${apiMeta}`);
  if (withCsp) {
    out = CSP_META.test(out)
      ? out.replace(CSP_META, cspMeta)
      : out.replace(/(<meta charset="[^"]*"\s*\/?>)/, `$1\n    ${cspMeta}`);
  }
  if (!out.includes(apiMeta))
    throw new Error("index.html has no <title> to put the API meta after");
  if (withCsp && !out.includes(cspMeta)) throw new Error("index.html has no <meta charset>");
  return out;
}
