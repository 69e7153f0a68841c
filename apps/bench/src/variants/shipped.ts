/**
 * Variants (a) and (d): the server exactly as shipped, started through its public `startServer`,
 * with an enterprise key whose custom limits are far above anything the bench can send.
 */
import { startServer } from "@animal-store/server";

const UNREACHABLE_LIMIT = 1_000_000_000;

/** Starts the shipped server on `env` and issues the bench's key. */
export async function startShipped(env: Record<string, string | undefined>) {
  const server = await startServer(env);
  const key = await server.createKey({
    plan: "enterprise",
    name: "bench",
    perMinute: UNREACHABLE_LIMIT,
    perDay: UNREACHABLE_LIMIT,
  });
  return { url: server.url, key, close: () => server.close() };
}
