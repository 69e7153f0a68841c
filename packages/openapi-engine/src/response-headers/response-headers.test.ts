import express, { type RequestHandler } from "express";
import { describe, expect, it } from "vitest";
import { securityHeaders, staticResponseHeaders } from "./response-headers.js";

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
