import { Writable } from "node:stream";
import express from "express";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { requestContext } from "./request-context.js";

/** An app whose only route answers 204, logging to an in-memory stream. */
async function logged(path: string, headers: Record<string, string> = {}) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  // The server's logger redacts authorization wherever it appears; the access line must not need it.
  const logger = pino({ level: "info", redact: ["authorization", "*.authorization"] }, sink);
  const app = express();
  app.use(requestContext(logger));
  app.use((_req, res) => res.status(204).end());
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  await res.arrayBuffer();
  await new Promise((resolve) => server.close(resolve));
  for (let i = 0; i < 50 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  return { res, lines };
}

describe("requestContext", () => {
  it("logs one access line per request with the path, status, time and request id", async () => {
    const { res, lines } = await logged("/v1/pets?limit=5", { "x-request-id": "trace-1" });
    expect(res.headers.get("x-request-id")).toBe("trace-1");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: "request",
      reqId: "trace-1",
      method: "GET",
      path: "/v1/pets",
      status: 204,
    });
    expect(typeof lines[0]?.ms).toBe("number");
  });

  it("never writes the query string or any header, so a misplaced key stays out of the logs", async () => {
    const { lines } = await logged("/v1/pets?api_key=ask_secret", {
      authorization: "Bearer ask_secret",
    });
    expect(JSON.stringify(lines)).not.toContain("ask_secret");
  });

  it("replaces an unsafe incoming request id with a generated one", async () => {
    const { res, lines } = await logged("/", { "x-request-id": "bad id with spaces" });
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines[0]?.reqId).toBe(id);
  });
});
