// Every answer is the same kind of answer (issue 52): the early ones, given before the app reads a
// request (a declared body over the limit 413, a target over the contract's bound 414, a bad Host
// 400) or before a request could be read at all (431, 408, malformed 400), carry the security
// headers every answer carries, a request id and the rate-limit headers of the caller's true
// window; each writes one access line and is counted in the metrics; and they are counted as the
// contract's "What is counted" says: a parsed request on the key it carries, the others not at all
// (the address's window as it stands). Planted faults: the edge's parsed refusals answered on the
// socket as before (no security headers, the address's window, not counted), the raw answers
// without the static headers or without their access line.
import { connect } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { staticResponseHeaders } from "../src/http-server/http-server.js";
import { type ScratchServer, startScratchServer } from "../src/testing/index.js";
import { loadFixture } from "./support/fixture-contract.js";
import { type KeyOnlyStore, listApplication, listOperations } from "./support/list-application.js";

// The server's log lines, as parsed JSON (the engine's logger writes to fd 1 otherwise).
const lines: Record<string, unknown>[] = [];
vi.mock("../src/metrics/observe.js", async (original) => {
  const real = (await original()) as typeof import("../src/metrics/observe.js");
  return {
    ...real,
    createLogger: (config: { logLevel: string }, service: string) =>
      pino(
        { level: config.logLevel, base: { service } },
        new Writable({
          write(chunk, _encoding, done) {
            for (const line of String(chunk).split("\n").filter(Boolean)) {
              lines.push(JSON.parse(line));
            }
            done();
          },
        }),
      ),
  };
});

const spec = loadFixture();
const list = listOperations(spec)[0];
if (!list) throw new Error("the contract has no parameterless GET answering a list");
const targetLimit = Number(spec.spec.info["x-request-target-limit-bytes"]);
const bodyLimit = Number(spec.spec.info["x-request-body-limit-bytes"]);
const anonymousPlan = String(spec.spec.info["x-rate-limit-anonymous-plan"]);

let app: ScratchServer<KeyOnlyStore>;
let metricsPort = 0;
beforeAll(async () => {
  const { createServer } = await import("node:net");
  metricsPort = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  app = await startScratchServer(listApplication(spec), {
    name: "early",
    env: { LOG_LEVEL: "info", METRICS_PORT: String(metricsPort), HEADERS_TIMEOUT_MS: "1000" },
  });
});
afterAll(() => app?.close());

/** Sends `text` on a fresh connection; resolves with the status line and headers of the answer. */
function exchange(
  text: string,
  wait = 0,
): Promise<{ status: number; headers: Map<string, string> }> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let answer = "";
    socket.on("data", (chunk) => {
      answer += String(chunk);
      const end = answer.indexOf("\r\n\r\n");
      if (end === -1) return;
      const [statusLine = "", ...fields] = answer.slice(0, end).split("\r\n");
      const headers = new Map(
        fields.map((field) => {
          const colon = field.indexOf(":");
          return [field.slice(0, colon).toLowerCase(), field.slice(colon + 1).trim()] as const;
        }),
      );
      socket.destroy();
      resolve({ status: Number(statusLine.split(" ")[1]), headers });
    });
    socket.on("error", reject);
    socket.once("connect", () => {
      if (wait === 0) socket.write(text);
      else setTimeout(() => socket.write(text), wait);
    });
  });
}

const SECURITY = staticResponseHeaders().map(([name]) => name.toLowerCase());
const remainingOf = async (key: string) => {
  const res = await fetch(`${app.apiUrl}${list.path}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await res.arrayBuffer();
  return Number(res.headers.get("x-ratelimit-remaining"));
};
const requestsCounted = async (status: number) => {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return text
    .split("\n")
    .filter(
      (line) =>
        line.startsWith("http_server_requests_total") && line.includes(`status="${status}"`),
    )
    .reduce((sum, line) => sum + Number(line.split(" ").pop()), 0);
};
const accessLinesWith = (requestId: string) =>
  lines.filter((line) => line.msg === "request" && line.reqId === requestId);

describe("early answers to parsed requests: counted on the caller's key", () => {
  const path = () => `${new URL(app.apiUrl).pathname}${list.path}`;
  it.each([
    [
      413,
      "payload_too_large",
      (key: string) =>
        `POST ${path()} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${bodyLimit + 1}\r\n\r\n`,
    ],
    [
      414,
      "uri_too_long",
      (key: string) =>
        `GET ${path()}?${"a".repeat(targetLimit)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    ],
    [
      400,
      "malformed_request",
      (key: string) =>
        `GET ${path()} HTTP/1.1\r\nHost: x\r\nHost: y\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    ],
  ] as const)("%i %s", async (status, _code, request) => {
    const key = await app.createKey({ name: `early-${status}`, plan: anonymousPlan });
    const before = await remainingOf(key);
    const countedBefore = await requestsCounted(status);
    const answer = await exchange(request(key));
    expect(answer.status).toBe(status);
    for (const name of SECURITY) expect(answer.headers.has(name), name).toBe(true);
    const requestId = answer.headers.get("x-request-id") as string;
    expect(requestId).toBeTruthy();
    // Its own key's window, counted: one lower than the request before it.
    expect(Number(answer.headers.get("x-ratelimit-remaining"))).toBe(before - 1);
    expect(await remainingOf(key)).toBe(before - 2);
    await expect.poll(() => accessLinesWith(requestId).length).toBe(1);
    expect(await requestsCounted(status)).toBe(countedBefore + 1);
  });
});

describe("answers before a request could be read: not counted, the address's window", () => {
  it.each([
    [431, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(70_000)}\r\n\r\n`, 0],
    [400, "NOT HTTP AT ALL\r\n\r\n", 0],
    [408, "GET / HTTP/1.1\r\nHost: x\r\n", 0],
  ] as const)(
    "%i",
    async (status, request, wait) => {
      const countedBefore = await requestsCounted(status);
      const healthz = await fetch(`${app.url}/healthz`);
      await healthz.arrayBuffer();
      const standing = healthz.headers.get("x-ratelimit-remaining");
      const answer = await exchange(request, wait);
      expect(answer.status).toBe(status);
      for (const name of SECURITY) expect(answer.headers.has(name), name).toBe(true);
      const requestId = answer.headers.get("x-request-id") as string;
      expect(requestId).toBeTruthy();
      expect(answer.headers.get("x-ratelimit-remaining")).toBe(standing);
      await expect.poll(() => accessLinesWith(requestId).length).toBe(1);
      expect(await requestsCounted(status)).toBe(countedBefore + 1);
    },
    20_000,
  );
});
