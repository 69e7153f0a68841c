/**
 * Serves a built app (dist/) the way a static host does after a deploy: files as they are, except
 * index.html, pointed at the API under test (its meta tag and CSP `connect-src`, index-html.ts).
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { withApiUrl } from "../../vite/index-html.js";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** A static host for one build. */
export interface AppServer {
  /** The page's address, e.g. http://127.0.0.1:41234/ */
  url: string;
  /** Its origin, what the real server's CORS_ORIGINS must name. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves `distDir` on 127.0.0.1 (a free port), its index.html calling `apiUrl()`: a function, so
 * a server that must know the page's origin first (CORS_ORIGINS) can be started after this one.
 */
export async function serveBuiltApp(distDir: string, apiUrl: () => string): Promise<AppServer> {
  const html = await readFile(join(distDir, "index.html"), "utf8");
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const file = normalize(join(distDir, path === "/" ? "index.html" : path));
    if (!file.startsWith(distDir) || req.method !== "GET") {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = file.endsWith("index.html")
        ? withApiUrl(html, apiUrl(), true)
        : await readFile(file);
      res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
