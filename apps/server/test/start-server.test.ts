/**
 * startServer, the public entry other packages use: listens on PORT=0, warms up without writing
 * anything, creates keys, and closes gracefully (idempotently).
 */
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../src/index.js";
import { tempDir } from "./support/test-app.js";

const temp = tempDir();
afterAll(() => temp.remove());

describe("startServer", () => {
  it("serves the API on an ephemeral port, with keys it creates, and closes", async () => {
    const server = await startServer({
      NODE_ENV: "test",
      PORT: "0",
      LOG_LEVEL: "silent",
      DATABASE_URL: `file:${join(temp.dir, "start.db")}`,
    });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.config.validateResponses).toBe(true);
      const key = await server.createKey({ plan: "pro", name: "start" });
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      // Warm-up ran a create; it must not have stored anything.
      expect(await (await fetch(`${server.url}/v1/pets`, { headers })).json()).toEqual([]);
      expect(await server.store.countApiKeys()).toBe(1);
      const created = await fetch(`${server.url}/v1/pets`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Rex", categoryId: 1 }),
      });
      expect(created.status).toBe(201);
      expect(await server.store.listPets({ limit: 10 })).toEqual([await created.json()]);
    } finally {
      await server.close();
    }
    await server.close();
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it("runs on the clock it is given (rate-limit windows and sunsets)", async () => {
    const minuteStart = Date.UTC(2040, 0, 1, 12, 0);
    const server = await startServer(
      {
        NODE_ENV: "test",
        PORT: "0",
        LOG_LEVEL: "silent",
        DATABASE_URL: `file:${join(temp.dir, "clock.db")}`,
      },
      { clock: () => minuteStart + 1500 },
    );
    try {
      const key = await server.createKey({ plan: "pro", name: "clock" });
      const answer = await fetch(`${server.url}/v1/pets`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(answer.status).toBe(200);
      // The window's reset is the end of the given clock's minute, not of the real one, and the
      // answer's Date is that clock's too (clients correct their clock skew with it).
      expect(answer.headers.get("x-ratelimit-reset")).toBe(String((minuteStart + 60_000) / 1000));
      expect(answer.headers.get("date")).toBe(new Date(minuteStart + 1500).toUTCString());
    } finally {
      await server.close();
    }
  });

  it("refuses a bad environment before opening anything", async () => {
    await expect(startServer({ PORT: "0", LOG_LEVEL: "loud" })).rejects.toThrow(/^LOG_LEVEL/);
  });
});

/** Sends raw bytes and returns everything the server answers before closing. */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += String(chunk);
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("requests too broken for Express", () => {
  it("answers malformed HTTP and oversized headers with the Error body", async () => {
    const server = await startServer({
      NODE_ENV: "test",
      PORT: "0",
      LOG_LEVEL: "silent",
      DATABASE_URL: `file:${join(temp.dir, "raw.db")}`,
    });
    try {
      for (const [bytes, status] of [
        ["GARBAGE\r\n\r\n", 400],
        ["GET /v1/pets HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400],
        [`GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431],
      ] as const) {
        const answer = await rawExchange(server.url, bytes);
        const [head = "", body = ""] = answer.split("\r\n\r\n");
        expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
        expect(head).toMatch(/content-type: application\/json/i);
        expect(JSON.parse(body)).toEqual({
          code: "validation_failed",
          message: expect.any(String),
          status,
        });
      }
    } finally {
      await server.close();
    }
  });
});
