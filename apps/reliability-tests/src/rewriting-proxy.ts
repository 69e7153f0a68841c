/**
 * An HTTP proxy in front of a real server that plants one fault in what passes through: it may
 * change a request before forwarding it (slip a valid key in) and an answer before returning it
 * (drop a header, shift an id, trim `Allow`). The planted-fault suite runs each check class
 * through one and shows the check fails on it.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as it passes through. */
export interface PassingRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** An answer as it passes through; `body` may be replaced. */
export interface PassingResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The fault: what to change on the way in and on the way out. */
export interface Rewrites {
  request?(req: PassingRequest): void;
  response?(req: PassingRequest, res: PassingResponse): void;
}

const HOP_BY_HOP = ["connection", "keep-alive", "transfer-encoding", "content-length"];

function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

/** Starts a proxy on a free port forwarding to `origin` with `rewrites` applied. */
export async function startRewritingProxy(origin: string, rewrites: Rewrites) {
  const upstream = new URL(origin);
  const server = createServer(async (incoming, outgoing) => {
    try {
      const req: PassingRequest = {
        method: incoming.method ?? "GET",
        url: incoming.url ?? "/",
        headers: { ...incoming.headers, host: upstream.host },
      };
      const body = await collect(incoming);
      rewrites.request?.(req);
      const res = await new Promise<PassingResponse>((resolve, reject) => {
        const forwarded = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) =>
            collect(answer).then(
              (b) =>
                resolve({
                  status: answer.statusCode ?? 502,
                  headers: { ...answer.headers },
                  body: b,
                }),
              reject,
            ),
        );
        forwarded.on("error", reject);
        forwarded.end(body);
      });
      const length = res.headers["content-length"];
      rewrites.response?.(req, res);
      for (const name of HOP_BY_HOP) delete res.headers[name];
      // HEAD answers keep the length the server announced; others carry their (new) body's.
      if (req.method === "HEAD" && length !== undefined) res.headers["content-length"] = length;
      else res.headers["content-length"] = String(res.body.length);
      outgoing.writeHead(res.status, res.headers);
      outgoing.end(req.method === "HEAD" ? undefined : res.body);
    } catch (err) {
      outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end(`proxy: ${(err as Error).message}`);
    }
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
