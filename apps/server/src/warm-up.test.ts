/** Warm-up: a server that cannot answer its own warm-up must not start. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { warmUp } from "./warm-up.js";

function answering(status: number) {
  const seen: string[] = [];
  const app = (req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: status >= 500 ? "internal_error" : "ok" }));
  };
  return { app, seen };
}

describe("warmUp", () => {
  it("sends each operation once with the warm-up key, and resolves when none fails", async () => {
    const { app, seen } = answering(404);
    await warmUp(app, "k1");
    expect(seen).toEqual([
      "GET /v1/pets?limit=1&status=available Bearer k1",
      "GET /v1/pets/1 Bearer k1",
      "POST /v1/pets Bearer k1",
    ]);
  });

  it("resolves when the store is down at start (503): the server starts and recovers later", async () => {
    const { app, seen } = answering(503);
    await warmUp(app, "k1");
    expect(seen).toHaveLength(3);
  });

  it("rejects, naming the request and the answer, when one answers 500", async () => {
    const { app } = answering(500);
    await expect(warmUp(app, "k1")).rejects.toThrow(
      'warm-up GET /v1/pets?limit=1&status=available answered 500: {"code":"internal_error"}',
    );
  });
});
