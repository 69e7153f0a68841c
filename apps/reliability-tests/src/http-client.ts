/**
 * A small HTTP client on node:http that sends exactly the bytes a test asks for (duplicate query
 * parameters, raw percent-escapes, invalid UTF-8, missing or odd Content-Type) and bounds every
 * exchange, so a hung server fails the test instead of hanging it.
 */
import { Agent, request as httpRequest } from "node:http";

/** A request as sent on the wire. */
export interface RawRequest {
  method: string;
  /** Path and query, already encoded, e.g. `/v1/pets?limit=5`. */
  target: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** A response as received, with the time it took. */
export interface RawResponse {
  status: number;
  headers: Headers;
  bodyText: string;
  elapsedMs: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** Sends `req` to `baseUrl`; rejects when no full answer arrives within `timeoutMs`. */
export function send(baseUrl: string, req: RawRequest, timeoutMs = 5000): Promise<RawResponse> {
  const base = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers["content-length"] = Buffer.byteLength(req.body);
    const outgoing = httpRequest(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.target,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          clearTimeout(timer);
          const h = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) h.set(name, Array.isArray(value) ? value.join(", ") : value);
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: h,
            bodyText: Buffer.concat(chunks).toString("utf8"),
            elapsedMs: performance.now() - started,
          });
        });
      },
    );
    const timer = setTimeout(() => {
      outgoing.destroy(new Error(`${req.method} ${req.target}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    outgoing.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    outgoing.end(req.body);
  });
}

/** Parses a JSON response body, failing with the body's start when it is not JSON. */
export function jsonBody<T>(res: RawResponse): T {
  try {
    return JSON.parse(res.bodyText) as T;
  } catch {
    throw new Error(`HTTP ${res.status} body is not JSON: ${res.bodyText.slice(0, 200)}`);
  }
}
