import express from "express";
import { describe, expect, it, vi } from "vitest";

const tuned = vi.hoisted(() => ({ calls: 0 }));
vi.mock("./v8-tuning.js", () => ({
  tuneV8ForServing: () => {
    tuned.calls++;
  },
}));

const { createHttpServer } = await import("./http-server.js");

describe("createHttpServer", () => {
  it("sets the serving V8 flags before its first request (v8-tuning.ts says why)", () => {
    const server = createHttpServer(express(), {
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
    });
    expect(tuned.calls).toBe(1);
    expect(server.listening).toBe(false);
  });
});
