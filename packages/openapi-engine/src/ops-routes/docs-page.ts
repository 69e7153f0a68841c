/**
 * The rendered docs page as `/docs` serves it: its code samples call the serving origin instead of
 * the contract's first server, and it goes out compressed (br or gzip) when the client asks.
 */
import { readFile, stat } from "node:fs/promises";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Request, Response } from "express";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The contract's first server URL with its variables at their defaults; undefined without one. */
export function firstServerUrl(specText: string): string | undefined {
  const server = (
    JSON.parse(specText) as {
      servers?: { url: string; variables?: Record<string, { default?: string }> }[];
    }
  ).servers?.[0];
  if (!server) return undefined;
  return server.url.replace(
    /\{(\w+)\}/g,
    (_, name: string) => server.variables?.[name]?.default ?? `{${name}}`,
  );
}

// A host as a client may send it (name or address, optional port): anything else is not written
// into the page, which would otherwise carry a header's text into its scripts.
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The address the samples call on this server: its origin and the contract's base path. */
export function servingApiUrl(req: Request, basePath: string): string | undefined {
  const host = req.get("host") ?? "";
  return HOST.test(host) ? `${req.protocol}://${host}${basePath}` : undefined;
}

type Encoding = "br" | "gzip" | "identity";

/** The description the serving origin gets in the page's server list. */
export const SERVING_SERVER_DESCRIPTION = "This server (the one serving these docs)";

/**
 * The page as this server sends it: the samples' URL (`placeholder`) replaced by `apiUrl`, and
 * `apiUrl` listed first among the servers of the contract the page embeds (its first
 * `"servers":[`, the document's own: OpenAPI puts `servers` before `paths`).
 */
export function servedHtml(html: string, placeholder: string | undefined, apiUrl: string): string {
  const samples = placeholder ? html.replaceAll(placeholder, apiUrl) : html;
  const entry = JSON.stringify({ url: apiUrl, description: SERVING_SERVER_DESCRIPTION });
  return samples.replace('"servers":[', `"servers":[${entry},`);
}

/**
 * Serves the page at `path` with every occurrence of `placeholder` (the URL the samples were
 * written with) replaced by the serving API URL. The page is read when it changed (a rebuild
 * shows at once) and each variant (URL, encoding) is compressed once and kept with it.
 */
export function docsPage(opts: {
  path: string;
  placeholder: string | undefined;
  basePath: string;
}) {
  let loaded: { mtimeMs: number; html: string; variants: Map<string, Promise<Buffer>> } | undefined;

  async function current(): Promise<NonNullable<typeof loaded>> {
    const { mtimeMs } = await stat(opts.path);
    if (loaded?.mtimeMs !== mtimeMs) {
      loaded = { mtimeMs, html: await readFile(opts.path, "utf8"), variants: new Map() };
    }
    return loaded;
  }

  return async function send(req: Request, res: Response): Promise<void> {
    const page = await current();
    const apiUrl = servingApiUrl(req, opts.basePath);
    const encoding = (req.acceptsEncodings("br", "gzip", "identity") || "identity") as Encoding;
    const key = `${encoding} ${apiUrl ?? ""}`;
    let body = page.variants.get(key);
    if (!body) {
      const html = apiUrl ? servedHtml(page.html, opts.placeholder, apiUrl) : page.html;
      const raw = Buffer.from(html);
      body =
        encoding === "br"
          ? brotli(raw, {
              params: {
                // A middle quality: the top ones take seconds on a page of megabytes.
                [constants.BROTLI_PARAM_QUALITY]: 6,
                [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            })
          : encoding === "gzip"
            ? gzipped(raw)
            : Promise.resolve(raw);
      // A handful of hosts (localhost, 127.0.0.1, a proxy's name) at most: drop the oldest.
      if (page.variants.size >= 16) page.variants.delete(page.variants.keys().next().value ?? "");
      page.variants.set(key, body);
    }
    const bytes = await body;
    res.setHeader("Vary", "Accept-Encoding, Host, X-Forwarded-Proto");
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.type("text/html");
    res.setHeader("Content-Length", String(bytes.length));
    res.end(req.method === "HEAD" ? undefined : bytes);
  };
}
