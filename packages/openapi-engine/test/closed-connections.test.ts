/**
 * Closed means closed: after a connection-level answer the server does not wait for the client
 * to close its side. 1,000 clients that read the answer but never close and keep sending are all
 * cut, and the descriptor count of this process (the server runs in it, over the widgets
 * fixture) comes back to where it was (planted fault: the
 * answer half-closes the connection and waits, holding the descriptor as long as the client
 * likes).
 */
import { existsSync, readdirSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { ScratchServer } from "../src/testing/index.js";
import { readUntilClose } from "./support/raw-http.js";
import { startFixtureServer } from "./support/serve.js";
import type { WidgetStore } from "./support/widget-app.js";

// One answered by the parser's error (not HTTP), one by the edge checks (no Host): both kinds
// of connection-level answer.
const OPENERS = ["GARBAGE\r\n\r\n", "GET /healthz HTTP/1.1\r\n\r\n"];

/**
 * A client that keeps its side open when the server ends its own (Node's sockets would close
 * theirs in turn): the connection stays half-open until the server destroys it.
 */
function stubbornSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

describe.skipIf(!existsSync("/proc/self/fd"))(
  "1,000 clients that never close (planted fault: an answered connection left half-open)",
  () => {
    let server: ScratchServer<WidgetStore> | undefined;
    afterAll(() => server?.close());

    it("are all cut after their answer, and the descriptors come back to where they were", async () => {
      server = await startFixtureServer({
        name: "closed",
        env: { MAX_CONNECTIONS_PER_ADDRESS: "5000" },
      });
      const url = server.url;
      // The clients' descriptors are this process's too: both sides close when the server cuts.
      const fds = () => readdirSync("/proc/self/fd").length;
      const before = fds();
      const clients = await Promise.all(
        Array.from({ length: 1000 }, async (_, i) => {
          const socket = await stubbornSocket(url);
          // Reads everything, never ends its side, and keeps sending.
          const closed = readUntilClose(socket, 30_000);
          socket.write(OPENERS[i % OPENERS.length] as string);
          const timer = setInterval(() => socket.writable && socket.write("more\r\n"), 100);
          return closed.finally(() => clearInterval(timer));
        }),
      );
      const answers = await Promise.all(clients);
      // A parsed request refused at the edge is counted on its address like any request, so
      // once the address's window is spent those get 429 instead of 400.
      expect(answers.filter((text) => /^HTTP\/1\.1 (400|429) /.test(text)).length).toBe(1000);
      expect(answers.filter((text) => text.startsWith("HTTP/1.1 400 ")).length).toBeGreaterThan(0);
      await expect.poll(fds, { timeout: 10_000 }).toBeLessThanOrEqual(before + 5);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    }, 90_000);
  },
);
