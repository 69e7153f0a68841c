/**
 * express-openapi-validator compiles an operation's request and response schemas on its first
 * request. Warm-up sends one request per operation through the app on a private loopback port
 * before the real port opens, so no client pays for compilation. It writes nothing: while it
 * runs, createPet goes to a dry-run store that answers without storing.
 */
import { createServer, type RequestListener, type ServerOptions } from "node:http";
import type { AddressInfo } from "node:net";
import type { Store } from "./store/index.js";

/** Id of the in-memory key warm-up requests use; their access logs are not written. */
export const WARM_UP_KEY_ID = "warm-up";

/** The warm-up requests: listing, a lookup by id, and a create. */
const WARM_UP_REQUESTS: Array<{ method: string; path: string; body?: string }> = [
  { method: "GET", path: "/v1/pets?limit=1&status=available" },
  { method: "GET", path: "/v1/pets/1" },
  { method: "POST", path: "/v1/pets", body: JSON.stringify({ name: "warm-up", categoryId: 1 }) },
];

/** `store`, except that createPet stores nothing while `dryRun()` is true. */
export function withDryRunWrites(store: Store, dryRun: () => boolean): Store {
  return Object.assign(Object.create(store) as Store, {
    createPet: (pet: Parameters<Store["createPet"]>[0]) =>
      dryRun() ? Promise.resolve({ id: 1, ...pet }) : store.createPet(pet),
  });
}

/**
 * Runs the warm-up requests against `app` with the given bearer key; throws on a 500 answer.
 * `options` are the real server's, so the warm-up builds requests as it will.
 */
export async function warmUp(
  app: RequestListener,
  bearerKey: string,
  options: ServerOptions = {},
): Promise<void> {
  const server = createServer(options, app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    for (const request of WARM_UP_REQUESTS) {
      const response = await fetch(`http://127.0.0.1:${port}${request.path}`, {
        method: request.method,
        headers: { authorization: `Bearer ${bearerKey}`, "content-type": "application/json" },
        body: request.body,
      });
      const text = await response.text();
      // A server that cannot answer its own warm-up (say, validators that failed to build)
      // must not open its port. 503 is not such a failure: a store that is down at start is
      // answered with 503 until it is back (reliability-tests), so the server still starts.
      if (response.status === 500) {
        throw new Error(
          `warm-up ${request.method} ${request.path} answered ${response.status}: ${text.slice(0, 300)}`,
        );
      }
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
