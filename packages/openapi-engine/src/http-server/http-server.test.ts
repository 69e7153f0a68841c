import type { IncomingMessage, ServerResponse } from "node:http";
import express, { type RequestHandler } from "express";
import { describe, expect, it, vi } from "vitest";
import { connectionErrors } from "../errors.js";

const tuned = vi.hoisted(() => ({ calls: 0 }));
vi.mock("./v8-tuning.js", () => ({
  tuneV8ForServing: () => {
    tuned.calls++;
  },
}));

const { createHttpServer, edgeProblem, securityHeaders, staticResponseHeaders } = await import(
  "./http-server.js"
);

/** A server made with `tuneV8` as given (the application's choice). */
function made(tuneV8: boolean | undefined) {
  const app = express();
  const listener = (req: IncomingMessage, res: ServerResponse) => app(req as never, res as never);
  return createHttpServer(Object.assign(listener, { express: app }), {
    config: {
      trustProxy: 0,
      connections: {
        headersTimeoutMs: 1000,
        requestTimeoutMs: 1000,
        keepAliveTimeoutMs: 1000,
        maxConnections: 10,
        maxConnectionsPerAddress: 10,
      },
    } as Parameters<typeof createHttpServer>[1]["config"],
    limiter: { peek: () => undefined } as never,
    clock: () => 0,
    anonymousLimits: {} as never,
    bounds: {} as never,
    errorShape: {} as never,
    tuneV8,
  });
}

describe("createHttpServer", () => {
  it("sets the serving V8 flags before its first request when the application asks (v8-tuning.ts says why)", () => {
    const server = made(true);
    expect(tuned.calls).toBe(1);
    expect(server.listening).toBe(false);
  });

  it("leaves the process's V8 flags alone for an embedder that does not ask", () => {
    const before = tuned.calls;
    made(undefined);
    made(false);
    expect(tuned.calls).toBe(before);
  });
});

const bounds = { targetLimitBytes: 100, bodyLimitBytes: 1000 };

function request(raw: string[], options: { url?: string; minor?: number } = {}) {
  const headers: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    headers[name] ??= raw[i + 1] as string;
  }
  return {
    url: options.url ?? "/",
    httpVersionMinor: options.minor ?? 1,
    headers,
    rawHeaders: raw,
  } as unknown as IncomingMessage;
}

describe("edgeProblem", () => {
  it.each([
    ["localhost"],
    ["localhost:8080"],
    ["127.0.0.1:1"],
    ["[::1]:8080"],
    ["api.example.com"],
    [""],
  ])("passes Host %j", (host) => {
    expect(edgeProblem(request(["Host", host]), bounds)).toBeUndefined();
  });

  it.each([["bad host"], ["a/b"], ["user@host"], ["host:port"], ["[::1"]])(
    "refuses Host %j",
    (host) => {
      expect(edgeProblem(request(["Host", host]), bounds)).toBe(connectionErrors.badHost);
    },
  );

  it("refuses a missing Host in HTTP/1.1 only, and a repeated one", () => {
    expect(edgeProblem(request([]), bounds)).toBe(connectionErrors.badHost);
    expect(edgeProblem(request([], { minor: 0 }), bounds)).toBeUndefined();
    expect(edgeProblem(request(["Host", "a", "HOST", "a"]), bounds)).toBe(connectionErrors.badHost);
  });

  it("refuses Transfer-Encoding in HTTP/1.0, a long target and a declared length over the limit", () => {
    expect(
      edgeProblem(request(["Host", "a", "Transfer-Encoding", "chunked"], { minor: 0 }), bounds),
    ).toBe(connectionErrors.http10Framing);
    expect(edgeProblem(request(["Host", "a"], { url: `/${"a".repeat(100)}` }), bounds)).toBe(
      connectionErrors.uriTooLong,
    );
    expect(edgeProblem(request(["Host", "a"], { url: `/${"a".repeat(99)}` }), bounds)).toBe(
      undefined,
    );
    expect(edgeProblem(request(["Host", "a", "Content-Length", "1001"]), bounds)).toBe(
      connectionErrors.payloadTooLarge,
    );
    expect(edgeProblem(request(["Host", "a", "Content-Length", "1000"]), bounds)).toBeUndefined();
  });
});

const TRANSPORT = new Set(["date", "connection", "keep-alive", "content-length", "content-type"]);

/** The headers an app with `middleware` in front of a 204 route answers with. */
async function headersOf(...middleware: RequestHandler[]): Promise<Record<string, string>> {
  const app = express();
  app.disable("x-powered-by");
  app.use(...middleware);
  app.use((_req, res) => res.status(204).end());
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}/v1/pets`);
  await new Promise((resolve) => server.close(resolve));
  return Object.fromEntries([...res.headers].filter(([name]) => !TRANSPORT.has(name)));
}

describe("staticResponseHeaders", () => {
  it("answers with exactly helmet's API headers plus Cache-Control: no-store", async () => {
    const helmetPerRequest = await headersOf(securityHeaders(), (_req, res, next) => {
      res.setHeader("Cache-Control", "no-store");
      next();
    });
    const precomputed = await headersOf((_req, res, next) => {
      for (const [name, value] of staticResponseHeaders()) res.setHeader(name, value);
      next();
    });
    expect(precomputed).toEqual(helmetPerRequest);
    expect(precomputed["content-security-policy"]).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
    expect(precomputed["cache-control"]).toBe("no-store");
    expect(precomputed["x-frame-options"]).toBe("DENY");
    expect(Object.keys(precomputed).sort()).toEqual([
      "cache-control",
      "content-security-policy",
      "cross-origin-resource-policy",
      "strict-transport-security",
      "x-content-type-options",
      "x-frame-options",
    ]);
  });
});
