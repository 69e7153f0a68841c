/**
 * Response headers every answer carries: helmet's security headers (a JSON API needs no script,
 * style or framing, so the CSP allows nothing), `Cache-Control: no-store` (answers depend on the
 * caller's key), and CORS for the configured origins so a browser app can send the bearer header.
 */
import cors from "cors";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import helmet from "helmet";

/** Headers a browser app may read from our answers (rate limits, deprecation, request id). */
const EXPOSED_HEADERS = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "X-Request-Id",
  "WWW-Authenticate",
  "Deprecation",
  "Sunset",
  "Link",
];

/** helmet with a deny-all CSP, for JSON answers. */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
  });
}

/** Middleware: `Cache-Control: no-store` on every response. */
export function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader("Cache-Control", "no-store");
  next();
}

/** CORS for `origins` (or any origin for `["*"]`); null when no origin is configured. */
export function corsFor(origins: string[]): RequestHandler | null {
  if (origins.length === 0) return null;
  return cors({
    origin: origins.includes("*") ? "*" : origins,
    methods: ["GET", "POST"],
    allowedHeaders: ["Authorization", "Content-Type", "X-Request-Id"],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
