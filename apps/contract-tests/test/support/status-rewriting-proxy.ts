/**
 * A planted fault for the Prism gate: an HTTP proxy in front of the real server that answers one
 * status as another, so that the server seems to answer a status the operation does not document.
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/** A listening proxy. */
export interface StatusRewritingProxy {
  url: string;
  close(): Promise<void>;
}

/** Starts the proxy in front of `upstream` (an origin), answering `from` as `to`. */
export async function startStatusRewritingProxy(
  upstream: string,
  from: number,
  to: number,
): Promise<StatusRewritingProxy> {
  const target = new URL(upstream);
  const server = createServer((incoming, outgoing) => {
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        outgoing.writeHead(
          answer.statusCode === from ? to : (answer.statusCode ?? 502),
          answer.headers,
        );
        answer.pipe(outgoing);
      },
    );
    forward.on("error", () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
