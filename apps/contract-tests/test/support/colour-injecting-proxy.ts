/**
 * The planted fault of the gates: a tiny HTTP proxy that sits between Prism (or Respect) and the
 * real server and adds an undocumented `"colour": "red"` to every Pet in a response body. It runs
 * outside the server on purpose: the server validates its own responses, so a fault planted inside
 * it would be caught there and never reach the gate under test.
 */
import { createServer, type IncomingHttpHeaders, request } from "node:http";
import type { AddressInfo } from "node:net";

/** A listening fault proxy. */
export interface FaultProxy {
  url: string;
  /** How many response bodies it changed. */
  injected(): number;
  close(): Promise<void>;
}

const isPet = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  "id" in value &&
  "name" in value;

/** The body with `colour` added to each Pet in it, and how many Pets it changed. */
function withColour(body: unknown): { body: unknown; pets: number } {
  if (Array.isArray(body)) {
    const pets = body.filter(isPet).length;
    return { body: body.map((item) => (isPet(item) ? { ...item, colour: "red" } : item)), pets };
  }
  return isPet(body) ? { body: { ...body, colour: "red" }, pets: 1 } : { body, pets: 0 };
}

/** Starts the fault proxy in front of `upstream` (an origin, e.g. http://127.0.0.1:1234). */
export async function startColourInjectingProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  let injected = 0;
  const server = createServer((incoming, outgoing) => {
    const headers: IncomingHttpHeaders = { ...incoming.headers, host: target.host };
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          let body = Buffer.concat(chunks);
          const responseHeaders = { ...answer.headers };
          const plainJson =
            /json/.test(String(answer.headers["content-type"])) &&
            !answer.headers["content-encoding"] &&
            body.length > 0;
          if (plainJson) {
            const changed = withColour(JSON.parse(body.toString("utf8")));
            if (changed.pets > 0) {
              injected += 1;
              body = Buffer.from(JSON.stringify(changed.body));
              responseHeaders["content-length"] = String(body.length);
            }
          }
          outgoing.writeHead(answer.statusCode ?? 502, responseHeaders);
          outgoing.end(body);
        });
      },
    );
    forward.on("error", () => {
      outgoing.writeHead(502).end();
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    injected: () => injected,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
