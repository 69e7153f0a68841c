/** Real servers for the gates: `startServer` on a fresh SQLite file, closed and removed after. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StartOptions } from "@animal-store/openapi-engine";
import { type RunningServer, type Store, startServer } from "@animal-store/server";

/** A running real server and its API base URL (`…/v1`). */
export interface GateServer {
  server: RunningServer;
  /** The origin, e.g. http://127.0.0.1:41234. */
  origin: string;
  /** The API base, `${origin}/v1`: what Prism proxies to and Respect calls. */
  apiUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the real server (the same `startServer` as `pnpm start`) on a free port with its own
 * SQLite file, silent logs and the given extra environment (rate-limit ban settings, ...);
 * `options.spec` serves another bundled contract (a scratch edit of the spec).
 */
export async function startGateServer(
  env: Record<string, string> = {},
  options: StartOptions<Store> = {},
): Promise<GateServer> {
  const dir = mkdtempSync(join(tmpdir(), "contract-gate-"));
  const server = await startServer(
    {
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: "0",
      DATABASE_URL: `file:${join(dir, "pets.db")}`,
      LOG_LEVEL: "silent",
      ...env,
    },
    options,
  );
  return {
    server,
    origin: server.url,
    apiUrl: `${server.url}${server.contract.basePath}`,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
