import express from "express";
import { describe, expect, it } from "vitest";
import { requestContext } from "./api-app.js";

/** The X-Request-Id an app with only the request context answers with, and the id it set. */
async function answered(headers: Record<string, string> = {}) {
  let seen: unknown;
  const app = express();
  app.use(requestContext());
  app.use((_req, res) => {
    seen = res.locals.requestId;
    res.status(204).end();
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  try {
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers });
    await res.arrayBuffer();
    return { header: res.headers.get("x-request-id"), seen };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("requestContext", () => {
  it("keeps a short plain incoming request id and echoes it", async () => {
    expect(await answered({ "x-request-id": "trace-1" })).toEqual({
      header: "trace-1",
      seen: "trace-1",
    });
  });

  it("replaces an unsafe incoming request id with a generated one", async () => {
    const { header, seen } = await answered({ "x-request-id": "bad id with spaces" });
    expect(header).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen).toBe(header);
  });
});
