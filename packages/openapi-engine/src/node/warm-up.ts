/**
 * express-openapi-validator compiles an operation's response schemas on its first answer, and V8
 * compiles the rest of the path on first use. Warm-up sends one request per operation of the
 * contract, built from its examples, through the app on a private loopback port before the real
 * port opens, so no client pays for that. It writes nothing: while it runs the app's store is a
 * scratch one (storage/dry-run.ts), whatever the operations do.
 */
import { createServer, type RequestListener, type ServerOptions } from "node:http";
import type { AddressInfo } from "node:net";
import type { ExampleRequest } from "../contract/example-requests.js";

/**
 * Sends `requests` to `app` with the given bearer key; throws on a 500 answer. `options` are the
 * real server's, so the warm-up builds requests as it will.
 */
export async function warmUp(
  app: RequestListener,
  requests: ExampleRequest[],
  bearerKey: string,
  options: ServerOptions = {},
): Promise<void> {
  const server = createServer(options, app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    for (const request of requests) {
      const response = await fetch(`http://127.0.0.1:${port}${request.path}`, {
        method: request.method,
        headers: { ...request.headers, authorization: `Bearer ${bearerKey}` },
        body: request.body,
      });
      const text = await response.text();
      // A server that cannot answer its own warm-up (validators that failed to build, an
      // operation without a handler) must not open its port. 503 is not such a failure: a
      // store that is down at start is answered with 503 until it is back (reliability-tests).
      if (response.status === 500) {
        throw new Error(
          `warm-up ${request.operationId} (${request.method} ${request.path}) answered 500: ${text.slice(0, 300)}`,
        );
      }
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
