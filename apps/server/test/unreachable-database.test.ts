/**
 * PostgreSQL unreachable at start, in every mode (development, the default, and production): the
 * server starts anyway and answers 503 until the database is back (the README's claim), and the
 * cause is logged once per change of state, with the URL's password never shown.
 */
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { contract } from "./support/contract.js";
import { kill, type ServerProcess, spawnServer } from "./support/server-process.js";

/** A loopback port nothing listens on (bound and released at once). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const PASSWORD = "s3cret-never-logged";

describe("PostgreSQL unreachable at start", () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await kill(server, "SIGTERM");
    server = undefined;
  });

  for (const mode of ["development", "production"]) {
    it(`${mode}: starts, answers 503, logs the cause once without the password`, async () => {
      const port = await closedPort();
      server = await spawnServer({
        NODE_ENV: mode,
        DATABASE_URL: `postgres://app:${PASSWORD}@127.0.0.1:${port}/animal_store`,
      });
      for (let i = 0; i < 3; i++) {
        const ready = await fetch(`${server.url}/readyz`);
        expect(ready.status).toBe(503);
      }
      const list = await fetch(`${server.url}${contract.basePath}/pets`, {
        headers: { authorization: `Bearer ask_${"a".repeat(43)}` },
      });
      expect([401, 503]).toContain(list.status);
      // Log lines are written in batches: wait for the closing line, which flushes them all.
      await kill(server, "SIGTERM");
      const lines = server.stdoutLines();
      expect(lines.at(-1)?.msg).toBe("closed");
      const notReady = lines.filter((line) => line.msg === "database not ready");
      expect(notReady, JSON.stringify(lines)).toHaveLength(1);
      expect(String(notReady[0]?.cause)).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
      const everything = JSON.stringify(lines) + server.stderr();
      expect(everything).not.toContain(PASSWORD);
    });
  }
});
