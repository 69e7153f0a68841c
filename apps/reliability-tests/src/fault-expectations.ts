/**
 * Polling helpers for fault suites: every wait has a bound, and recovery is measured, not assumed.
 */
import { type RawRequest, type RawResponse, send } from "./http-client.js";

/** Sends `req` repeatedly until `accept(res)` or `timeoutMs`; resolves with the time it took. */
export async function waitUntil(
  baseUrl: string,
  req: RawRequest,
  accept: (res: RawResponse) => boolean,
  timeoutMs: number,
): Promise<number> {
  const started = performance.now();
  let last = "no answer";
  while (performance.now() - started < timeoutMs) {
    try {
      const res = await send(baseUrl, req, Math.max(500, timeoutMs / 4));
      if (accept(res)) return performance.now() - started;
      last = `${res.status} ${res.bodyText.slice(0, 120)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `${req.method} ${req.target}: not as expected within ${timeoutMs} ms (last: ${last})`,
  );
}
