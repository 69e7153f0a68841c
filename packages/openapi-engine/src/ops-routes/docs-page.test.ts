// The docs page as /docs sends it: compressed as the client asks (br, gzip, or not at all), its
// samples' server URL replaced by the serving origin (never by a Host that is not a host), and
// re-read when the file changes.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docsPage, firstServerUrl } from "./docs-page.js";

const dir = mkdtempSync(join(tmpdir(), "engine-docs-page-"));
const pagePath = join(dir, "index.html");
const SPEC = JSON.stringify({
  servers: [
    { url: "https://{region}.fixture.example/base", variables: { region: { default: "eu" } } },
  ],
});
const placeholder = firstServerUrl(SPEC) ?? "";
const page = (n: number) =>
  `<html><body>${`<pre>curl '${placeholder}/things'</pre>`.repeat(n)}</body></html>`;
let server: Server;
let port = 0;

beforeAll(async () => {
  writeFileSync(pagePath, page(200));
  const app = express();
  const send = docsPage({ path: pagePath, placeholder, basePath: "/base" });
  app.get("/docs", (req, res, next) => {
    send(req, res).catch(next);
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** GET /docs with raw headers (no decoding): status, headers and the body's bytes. */
function get(headers: Record<string, string>) {
  return new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: "/docs", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the docs page at /docs", () => {
  it("reads the first server's URL with its variables at their defaults", () => {
    expect(placeholder).toBe("https://eu.fixture.example/base");
  });

  it.each([
    ["br", brotliDecompressSync],
    ["gzip", gunzipSync],
  ] as const)(
    "is sent %s-compressed when asked, with the serving origin in its samples",
    async (encoding, decode) => {
      const { headers, body } = await get({ "accept-encoding": `${encoding}, deflate` });
      expect(headers["content-encoding"]).toBe(encoding);
      expect(String(headers.vary)).toContain("Accept-Encoding");
      const html = decode(body).toString("utf8");
      expect(body.length).toBeLessThan(html.length / 4);
      expect(html).not.toContain(placeholder);
      expect(html).toContain(`curl 'http://127.0.0.1:${port}/base/things'`);
    },
  );

  it("is sent as it is without Accept-Encoding", async () => {
    const { headers, body } = await get({});
    expect(headers["content-encoding"]).toBeUndefined();
    expect(body.toString("utf8")).toContain(`curl 'http://127.0.0.1:${port}/base/things'`);
  });

  it("keeps the contract's URL when the Host is not a host name", async () => {
    const { body } = await get({ host: "x'><script>alert(1)</script>" });
    const html = body.toString("utf8");
    expect(html).toContain(placeholder);
    expect(html).not.toContain("<script>alert");
  });

  it("serves a rebuilt page at once", async () => {
    writeFileSync(pagePath, page(3).replace("<body>", "<body>rebuilt"));
    const later = new Date(Date.now() + 5_000);
    utimesSync(pagePath, later, later);
    const { body } = await get({ "accept-encoding": "gzip" });
    expect(gunzipSync(body).toString("utf8")).toContain("rebuilt");
  });
});
