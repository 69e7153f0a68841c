import type { IncomingMessage, ServerResponse } from "node:http";
import express from "express";
import { describe, expect, it, vi } from "vitest";

const tuned = vi.hoisted(() => ({ calls: 0 }));
vi.mock("./v8-tuning.js", () => ({
  tuneV8ForServing: () => {
    tuned.calls++;
  },
}));

const { createHttpServer } = await import("./http-server.js");

/** A server made with `tuneV8` as given (the application's choice). */
function made(tuneV8: boolean | undefined) {
  const app = express();
  const listener = (req: IncomingMessage, res: ServerResponse) => app(req as never, res as never);
  return createHttpServer(Object.assign(listener, { express: app }), {
    config: {
      trustProxy: 0,
      connections: {
        headersTimeoutMs: 1000,
        requestTimeoutMs: 1000,
        keepAliveTimeoutMs: 1000,
        maxConnections: 10,
        maxConnectionsPerAddress: 10,
      },
    } as Parameters<typeof createHttpServer>[1]["config"],
    limiter: { peek: () => undefined } as never,
    clock: () => 0,
    anonymousLimits: {} as never,
    bounds: {} as never,
    errorShape: {} as never,
    tuneV8,
  });
}

describe("createHttpServer", () => {
  it("sets the serving V8 flags before its first request when the application asks (v8-tuning.ts says why)", () => {
    const server = made(true);
    expect(tuned.calls).toBe(1);
    expect(server.listening).toBe(false);
  });

  it("leaves the process's V8 flags alone for an embedder that does not ask", () => {
    const before = tuned.calls;
    made(undefined);
    made(false);
    expect(tuned.calls).toBe(before);
  });
});
