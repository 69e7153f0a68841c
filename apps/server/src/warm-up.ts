/**
 * express-openapi-validator compiles each operation's schemas on its first request. Warm-up sends
 * one request per operation through the app on a private loopback port before the real port
 * opens, so no client pays for compilation. The requests are chosen to write nothing: the
 * createPet body is invalid on purpose.
 */
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";

/** The warm-up requests: listing, a lookup by id, and an (invalid) create. */
const WARM_UP_REQUESTS: Array<{ method: string; path: string; body?: string }> = [
  { method: "GET", path: "/v1/pets?limit=1&status=available" },
  { method: "GET", path: "/v1/pets/1" },
  { method: "POST", path: "/v1/pets", body: "{}" },
];

/** Runs the warm-up requests against `app` with the given bearer key. */
export async function warmUp(app: RequestListener, bearerKey: string): Promise<void> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    for (const request of WARM_UP_REQUESTS) {
      const response = await fetch(`http://127.0.0.1:${port}${request.path}`, {
        method: request.method,
        headers: { authorization: `Bearer ${bearerKey}`, "content-type": "application/json" },
        body: request.body,
      });
      await response.arrayBuffer();
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
