/**
 * Response headers every answer carries: helmet's security headers (a JSON API needs no script,
 * style or framing, so the CSP allows nothing), `Cache-Control: no-store` (answers depend on the
 * caller's key), and CORS for the configured origins so a browser app can send the bearer header
 * and read the documented headers.
 */
import cors from "cors";
import type { Request, RequestHandler, Response } from "express";
import helmet from "helmet";
import { presetHeaders } from "../express-messages.js";
import { step } from "../lifecycle/lifecycle.js";

/**
 * helmet, reduced to the headers that protect a JSON API (OWASP REST Security Cheat Sheet):
 * a deny-all CSP with `frame-ancestors 'none'`, X-Frame-Options, X-Content-Type-Options,
 * Strict-Transport-Security and Cross-Origin-Resource-Policy. The rest of helmet's set governs
 * how a browser renders and navigates HTML documents (referrer, DNS prefetch, opener, IE8
 * downloads, Flash policies, the legacy XSS auditor); an answer that is never rendered gains
 * nothing from them, and each costs every response a header (the docs page, which is HTML, has
 * its own full set in ops-routes.ts).
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    // DENY, in line with frame-ancestors 'none' (helmet's default is SAMEORIGIN).
    xFrameOptions: { action: "deny" },
  });
}

/**
 * helmet's security headers plus `Cache-Control: no-store` (answers depend on the caller's key),
 * as a list computed once: helmet runs at start-up against a recorder, so the values stay
 * helmet's while a request only copies a fixed list, without helmet's per-request dispatch.
 */
export function staticResponseHeaders(): ReadonlyArray<readonly [string, string]> {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, String(value)]),
    removeHeader: () => {},
  };
  securityHeaders()({} as Request, recorder as unknown as Response, () => {});
  if (headers.length === 0) throw new Error("helmet set no headers on the recorder");
  headers.push(["Cache-Control", "no-store"]);
  return headers;
}

/** What CORS lets a browser app do: the contract's methods, request and response headers. */
export interface CorsLists {
  methods: string[];
  allowedHeaders: string[];
  exposedHeaders: string[];
}

/**
 * CORS for `origins` (or any origin for `["*"]`), allowing the contract's methods and request
 * headers and exposing every response header it documents; null when no origin is configured.
 */
export function corsFor(origins: string[], lists: CorsLists): RequestHandler | null {
  if (origins.length === 0) return null;
  return cors({
    origin: origins.includes("*") ? "*" : origins,
    methods: lists.methods,
    allowedHeaders: lists.allowedHeaders,
    exposedHeaders: lists.exposedHeaders,
    maxAge: 600,
    // The preflight goes on to the API, which answers it 204 with Allow and the caller's
    // rate-limit headers (an OPTIONS request is never counted).
    preflightContinue: true,
  });
}

/** What every answer's headers depend on. */
export interface ResponseHeaderOptions {
  /** Origins a browser app may call from (CORS_ORIGINS); none turns CORS off. */
  corsOrigins: string[];
  cors: CorsLists;
  /**
   * Milliseconds since the epoch. Another clock than Date.now (tests and gates run the server at
   * another time) also sets `Date`, so clients that correct for clock skew with it agree with
   * `X-RateLimit-Reset`; with the real clock Node writes `Date` itself.
   */
  clock: () => number;
}

/** The first step of every request: security headers, no-store, CORS and, with a test clock, Date. */
export function responseHeaders(options: ResponseHeaderOptions) {
  const preset = presetHeaders(staticResponseHeaders());
  const cors = corsFor(options.corsOrigins, options.cors);
  const clock = options.clock === Date.now ? undefined : options.clock;
  return step(function responseHeaders(req, res, next) {
    preset(res);
    if (clock !== undefined) res.setHeader("Date", new Date(clock()).toUTCString());
    if (cors === null) next();
    else cors(req, res, next);
  });
}
