/**
 * A reverse proxy between the page and the real server that records what crosses it, the CORS
 * preflights included (a browser shows those to no script or test API). With `hideExposedHeaders`
 * it drops `Access-Control-Expose-Headers` from every answer: the CORS mistake that leaves calls
 * working while scripts can no longer read X-RateLimit-*, Retry-After or Deprecation (planted
 * fault cors-headers-hidden).
 */
import { createServer, type IncomingHttpHeaders, request } from "node:http";
import type { AddressInfo } from "node:net";

/** One request that crossed the proxy and the status it got. */
export interface ProxiedExchange {
  method: string;
  path: string;
  requestHeaders: IncomingHttpHeaders;
  status: number;
  responseHeaders: IncomingHttpHeaders;
}

/** A running proxy: `origin` stands in for the target's. */
export interface ApiProxy {
  origin: string;
  exchanges: ProxiedExchange[];
  close(): Promise<void>;
}

/** Proxies 127.0.0.1:<free port> to `targetOrigin`. */
export async function startApiProxy(
  targetOrigin: string,
  options: { hideExposedHeaders: boolean },
): Promise<ApiProxy> {
  const target = new URL(targetOrigin);
  const exchanges: ProxiedExchange[] = [];
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
        if (options.hideExposedHeaders) delete headers["access-control-expose-headers"];
        const status = answer.statusCode ?? 502;
        exchanges.push({
          method: req.method ?? "",
          path: req.url ?? "",
          requestHeaders: req.headers,
          status,
          responseHeaders: headers,
        });
        res.writeHead(status, headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
