/**
 * HTTP at the edges, as a hostile client meets it, on the real start sequence over the widgets
 * fixture: bounds on slow and idle clients and connection caps (a thousand slow sockets counted
 * against this process's descriptors); HEAD for every GET operation; OPTIONS without a key; two
 * Authorization headers refused; answers given before a request could be read, in the Error
 * shape with their own codes and the rate-limit headers. Each test names the planted fault it
 * was seen to fail on.
 */

import { existsSync, readdirSync } from "node:fs";
import type { Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { ScratchServer } from "../src/testing/index.js";
import { openSocket, parseAnswers, rawExchange, readUntilClose } from "./support/raw-http.js";
import { contract, startFixtureServer, useFixtureServer } from "./support/serve.js";
import type { WidgetStore } from "./support/widget-app.js";
import { basePath, exampleCall } from "./support/widgets.js";

const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 4000;
const suite = useFixtureServer("edges", {
  HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
  REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  MAX_CONNECTIONS_PER_ADDRESS: "40",
});
const api = suite.api;
const gets = contract.operations.filter((op) => op.method === "GET");

/** A connection that sends a header line every `everyMs` and never finishes its headers. */
async function slowloris(url: string, everyMs: number, localAddress?: string) {
  const socket = await openSocket(url, localAddress);
  socket.write(`GET ${contract.basePath}/widgets HTTP/1.1\r\nHost: x\r\n`);
  const timer = setInterval(
    () => socket.writable && socket.write(`X-Slow-${Date.now()}: 1\r\n`),
    everyMs,
  );
  const opened = performance.now();
  const closed = readUntilClose(socket, 30_000).then((text) => ({
    text,
    afterMs: performance.now() - opened,
  }));
  closed.finally(() => clearInterval(timer));
  return { socket, closed };
}

describe("bounds on slow clients (planted fault: HEADERS_TIMEOUT_MS not passed on, Node's 60 s)", {
  timeout: 20_000,
}, () => {
  it("cuts a client that dribbles its headers within the bound, while others are served", async () => {
    const slow = await slowloris(suite.server.url, 200);
    // Another client (another address) is served meanwhile.
    const other = await fetch(api("/widgets"), {
      headers: { authorization: `Bearer ${suite.key}` },
    });
    expect(other.status).toBe(200);
    const { text, afterMs } = await slow.closed;
    // The bound: the headers timeout, checked every second, well before the request timeout
    // would have cut it.
    expect(afterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS * 0.9);
    expect(afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 1000 + 1500);
    expect(HEADERS_TIMEOUT_MS + 1000 + 1500).toBeLessThan(REQUEST_TIMEOUT_MS);
    const [answer] = parseAnswers(text);
    expect(answer?.status).toBe(408);
    expect(JSON.parse(answer?.body ?? "{}")).toMatchObject({
      code: "request_timeout",
      status: 408,
    });
  });

  it("cuts a request whose body dribbles in, at the request timeout", async () => {
    const socket = await openSocket(suite.server.url);
    socket.write(
      `POST ${contract.basePath}/widgets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${suite.key}\r\n` +
        "Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{",
    );
    const timer = setInterval(() => socket.writable && socket.write(" "), 200);
    const opened = performance.now();
    const text = await readUntilClose(socket, 30_000).finally(() => clearInterval(timer));
    expect(performance.now() - opened).toBeLessThan(REQUEST_TIMEOUT_MS + 1000 + 2500);
    expect(text === "" || /^HTTP\/1\.1 (400|408) /.test(text), text).toBe(true);
  });
});

describe("connection caps (planted fault: capConnections not installed)", () => {
  it("answers a connection over the per-address cap 503 too_many_connections; another address is served", async () => {
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 40; i++) held.push(await openSocket(suite.server.url));
      const over = await rawExchange(suite.server.url, `GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
      const [answer] = parseAnswers(over);
      expect(answer?.status).toBe(503);
      expect(JSON.parse(answer?.body ?? "{}")).toMatchObject({ code: "too_many_connections" });
      expect(answer?.headers["x-ratelimit-limit"]).toMatch(/^\d+$/);
      expect(answer?.headers["retry-after"]).toBe("1");
      const elsewhere = await openSocket(suite.server.url, "127.0.0.2");
      const text = readUntilClose(elsewhere);
      elsewhere.end("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      expect(parseAnswers(await text)[0]?.status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});

describe.skipIf(!existsSync("/proc/self/fd"))(
  "1,000 slow sockets (planted fault: no headers timeout)",
  () => {
    let server: ScratchServer<WidgetStore> | undefined;
    afterAll(() => server?.close());

    it("are all cut, and the process's descriptors come back to where they were", async () => {
      // The server runs in this process: its descriptors and the clients' are counted together,
      // and both sides are closed once the server cuts a socket.
      server = await startFixtureServer({
        name: "fds",
        env: { HEADERS_TIMEOUT_MS: "2000", MAX_CONNECTIONS_PER_ADDRESS: "5000" },
      });
      const url = server.url;
      const fds = () => readdirSync("/proc/self/fd").length;
      const before = fds();
      const sockets = await Promise.all(Array.from({ length: 1000 }, () => slowloris(url, 500)));
      // Every socket is held meanwhile...
      await expect.poll(fds, { timeout: 10_000 }).toBeGreaterThanOrEqual(before + 900);
      const served = await fetch(`${url}/healthz`);
      expect(served.status).toBe(200);
      // ... and cut at the bound, all of them (the headers timeout, checked every second; the
      // margin is for a loaded machine opening a thousand sockets).
      const closed = await Promise.all(sockets.map((s) => s.closed));
      expect(closed.filter(({ text }) => text.startsWith("HTTP/1.1 408 ")).length).toBe(1000);
      expect(Math.max(...closed.map(({ afterMs }) => afterMs))).toBeLessThan(2000 + 1000 + 4000);
      await expect.poll(fds, { timeout: 10_000 }).toBeLessThanOrEqual(before + 5);
    }, 90_000);
  },
);

describe("HEAD (planted fault: HEAD not mapped to the GET operation, 405)", () => {
  it("the fixture has GET operations", () => {
    expect(gets.length).toBeGreaterThan(1);
  });

  it.each(gets.map((op) => [op.operationId, op] as const))(
    "%s: HEAD answers the GET's status and headers, no body, and is counted",
    async (_id, op) => {
      const { path } = exampleCall(op);
      const headers = { authorization: `Bearer ${suite.key}` };
      const get = await fetch(api(path), { headers });
      const getBody = await get.arrayBuffer();
      const head = await fetch(api(path), { method: "HEAD", headers });
      expect(head.status).toBe(get.status);
      expect(await head.arrayBuffer()).toHaveProperty("byteLength", 0);
      for (const name of ["content-type", "content-length", "deprecation", "sunset", "link"]) {
        expect(head.headers.get(name), name).toBe(get.headers.get(name));
      }
      expect(Number(get.headers.get("content-length"))).toBe(getBody.byteLength);
      expect(Number(head.headers.get("x-ratelimit-remaining"))).toBe(
        Number(get.headers.get("x-ratelimit-remaining")) - 1,
      );
    },
  );
});

describe("OPTIONS (planted fault: OPTIONS through the credential check, 401)", () => {
  it("answers 204 with Allow on every path, without a key, and does not count", async () => {
    for (const path of new Set(
      contract.operations.map((op) => exampleCall(op).path.split("?")[0] as string),
    )) {
      const first = await fetch(api(path), { method: "OPTIONS" });
      const second = await fetch(api(path), { method: "OPTIONS" });
      expect(first.status).toBe(204);
      const declared = contract.operations
        .filter((op) => op.pattern.test(path))
        .map((op) => op.method);
      for (const method of [...declared, "OPTIONS"])
        expect(first.headers.get("allow")).toContain(method);
      expect(first.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
      expect(second.headers.get("x-ratelimit-remaining")).toBe(
        first.headers.get("x-ratelimit-remaining"),
      );
    }
  });

  it("answers a CORS preflight from an allowed origin, without a key", async () => {
    const origin = "https://app.example.com";
    const cors = await startFixtureServer({ name: "cors", env: { CORS_ORIGINS: origin } });
    try {
      const preflight = await fetch(`${cors.url}${contract.basePath}/widgets`, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization",
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
      expect(preflight.headers.get("allow")).toContain("POST");
      expect(preflight.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    } finally {
      await cors.close();
    }
  });
});

describe("two Authorization headers (planted fault: the first one used, 200)", () => {
  it.each([
    ["the valid one first", (valid: string) => [valid, "Bearer ask_not-a-key"]],
    ["the valid one last", (valid: string) => ["Bearer ask_not-a-key", valid]],
    ["the same key twice", (valid: string) => [valid, valid]],
  ])("are refused 401 invalid_api_key with error=invalid_request: %s", async (_label, pair) => {
    const [a, b] = pair(`Bearer ${suite.key}`);
    const text = await rawExchange(
      suite.server.url,
      `GET ${contract.basePath}/widgets HTTP/1.1\r\nHost: x\r\nAuthorization: ${a}\r\nauthorization: ${b}\r\nConnection: close\r\n\r\n`,
    );
    const [answer] = parseAnswers(text);
    expect(answer?.status).toBe(401);
    expect(JSON.parse(answer?.body ?? "{}")).toMatchObject({
      code: "invalid_api_key",
      status: 401,
    });
    expect(answer?.headers["www-authenticate"]).toBe(
      `Bearer realm="${contract.realm}", error="invalid_request"`,
    );
    expect(answer?.headers["x-ratelimit-remaining"]).toMatch(/^\d+$/);
  });
});

describe("answers given before a request could be read (planted fault: Node's empty answers)", () => {
  it.each([
    ["not HTTP at all", "GARBAGE\r\n\r\n", 400, "malformed_request"],
    [
      "a header line without a colon",
      `GET ${basePath}/widgets HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n`,
      400,
      "malformed_request",
    ],
    [
      "Content-Length with Transfer-Encoding",
      `POST ${basePath}/widgets HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      400,
      "malformed_request",
    ],
    [
      "two different Content-Lengths",
      `POST ${basePath}/widgets HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\nabcde`,
      400,
      "malformed_request",
    ],
    [
      "100 KB of headers",
      `GET ${basePath}/widgets HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(100_000)}\r\n\r\n`,
      431,
      "headers_too_large",
    ],
  ])(
    "%s: %s %s in the Error shape, with the rate-limit headers",
    async (_label, bytes, status, code) => {
      const answers = parseAnswers(await rawExchange(suite.server.url, bytes as string));
      expect(answers).toHaveLength(1);
      const [answer] = answers;
      expect(answer?.status).toBe(status);
      expect(answer?.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(answer?.body ?? "{}")).toEqual({
        code,
        message: expect.any(String),
        status,
      });
      for (const name of [
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
        "ratelimit-policy",
        "ratelimit",
        "x-request-id",
      ]) {
        expect(answer?.headers[name], name).toBeTruthy();
      }
      expect(answer?.headers.connection).toBe("close");
    },
  );
});
