/**
 * The real server for the browser suites: `startServer` (as `pnpm start`) on a scratch SQLite
 * file, allowing the page's origin (CORS_ORIGINS), with a clock a test can move forward so a rate
 * limit's window ends seconds later instead of up to a minute.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "@animal-store/server";

/** A running server, its API base URL and its movable clock. */
export interface WebTestServer {
  server: RunningServer;
  /** e.g. http://127.0.0.1:41234/v1 */
  apiUrl: string;
  /** The server's current time (ms). */
  now(): number;
  /** Moves the server's clock forward to `ms` (time then keeps flowing from there). */
  jumpTo(ms: number): void;
  close(): Promise<void>;
}

/** Starts the server allowing `corsOrigin` (none: the page's calls are refused by the browser). */
export async function startRealServer(corsOrigin: string | null): Promise<WebTestServer> {
  const dir = mkdtempSync(join(tmpdir(), "web-server-"));
  let offset = 0;
  const now = () => Date.now() + offset;
  const server = await startServer(
    {
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: "0",
      LOG_LEVEL: "silent",
      DATABASE_URL: `file:${join(dir, "pets.db")}`,
      ...(corsOrigin ? { CORS_ORIGINS: corsOrigin } : {}),
    },
    { clock: now },
  );
  return {
    server,
    apiUrl: `${server.url}/v1`,
    now,
    jumpTo(ms) {
      if (ms < now()) throw new Error("the server's clock only moves forward");
      offset = ms - Date.now();
    },
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
