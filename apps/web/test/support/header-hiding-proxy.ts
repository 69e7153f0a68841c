/**
 * A reverse proxy that drops `Access-Control-Expose-Headers` from every answer: the CORS mistake
 * that leaves requests working while scripts can no longer read the rate-limit, Retry-After and
 * deprecation headers (planted fault cors-headers-hidden).
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/** A running proxy: `origin` stands in for the target's. */
export interface HidingProxy {
  origin: string;
  close(): Promise<void>;
}

/** Proxies 127.0.0.1:<free port> to `targetOrigin`, hiding the exposed-header list. */
export async function startHeaderHidingProxy(targetOrigin: string): Promise<HidingProxy> {
  const target = new URL(targetOrigin);
  const server = createServer((req, res) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        const headers = { ...answer.headers };
        delete headers["access-control-expose-headers"];
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
