/**
 * Planted faults, to show the browser suites fail when what they guard breaks. Never set in normal
 * runs; `test/planted-faults.test.ts` runs the suites under each one and expects failures.
 * - client-ignores-retry-after: the app is built with a client whose Retry-After parser answers 0,
 *   so a 429 is retried at once, never waited out (the client's 429 handling broken).
 * - cors-origin-missing: the real server starts without the page's origin in CORS_ORIGINS.
 * - cors-headers-hidden: the page reaches the server through a proxy that drops
 *   Access-Control-Expose-Headers, so scripts cannot read X-RateLimit-*, Retry-After, Deprecation.
 */
import type { Plugin } from "vite";

/** The faults WEB_TEST_FAULT may name. */
export const FAULTS = [
  "client-ignores-retry-after",
  "cors-origin-missing",
  "cors-headers-hidden",
] as const;

/** One planted fault. */
export type Fault = (typeof FAULTS)[number];

/** The fault WEB_TEST_FAULT plants, or null; an unknown name is an error, not a silent pass. */
export function plantedFault(env: NodeJS.ProcessEnv = process.env): Fault | null {
  const value = env.WEB_TEST_FAULT;
  if (!value) return null;
  if (!(FAULTS as readonly string[]).includes(value)) {
    throw new Error(`WEB_TEST_FAULT=${value} is not one of ${FAULTS.join(", ")}`);
  }
  return value as Fault;
}

/** A Vite plugin that breaks the client's Retry-After parser: seconds become 0 ms. */
export function clientIgnoresRetryAfter(): Plugin {
  const seconds = /return Number\(text\) \* 1000;/;
  return {
    name: "planted-fault-client-ignores-retry-after",
    // Before the bundler reprints the module: the client's built text as it is on disk.
    enforce: "pre",
    transform(code, id) {
      if (!/client\/dist\/retry-policy\.js$/.test(id)) return undefined;
      // A fault that no longer applies must fail loudly, or the suite would seem to catch it.
      if (!seconds.test(code)) throw new Error(`the planted fault no longer matches ${id}`);
      return code.replace(seconds, "return 0;");
    },
  };
}
