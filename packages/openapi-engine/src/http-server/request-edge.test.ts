import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { connectionErrors } from "../errors.js";
import { edgeProblem } from "./request-edge.js";

const bounds = { targetLimitBytes: 100, bodyLimitBytes: 1000 };

function request(raw: string[], options: { url?: string; minor?: number } = {}) {
  const headers: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    headers[name] ??= raw[i + 1] as string;
  }
  return {
    url: options.url ?? "/",
    httpVersionMinor: options.minor ?? 1,
    headers,
    rawHeaders: raw,
  } as unknown as IncomingMessage;
}

describe("edgeProblem", () => {
  it.each([
    ["localhost"],
    ["localhost:8080"],
    ["127.0.0.1:1"],
    ["[::1]:8080"],
    ["api.example.com"],
    [""],
  ])("passes Host %j", (host) => {
    expect(edgeProblem(request(["Host", host]), bounds)).toBeUndefined();
  });

  it.each([["bad host"], ["a/b"], ["user@host"], ["host:port"], ["[::1"]])(
    "refuses Host %j",
    (host) => {
      expect(edgeProblem(request(["Host", host]), bounds)).toBe(connectionErrors.badHost);
    },
  );

  it("refuses a missing Host in HTTP/1.1 only, and a repeated one", () => {
    expect(edgeProblem(request([]), bounds)).toBe(connectionErrors.badHost);
    expect(edgeProblem(request([], { minor: 0 }), bounds)).toBeUndefined();
    expect(edgeProblem(request(["Host", "a", "HOST", "a"]), bounds)).toBe(connectionErrors.badHost);
  });

  it("refuses Transfer-Encoding in HTTP/1.0, a long target and a declared length over the limit", () => {
    expect(
      edgeProblem(request(["Host", "a", "Transfer-Encoding", "chunked"], { minor: 0 }), bounds),
    ).toBe(connectionErrors.http10Framing);
    expect(edgeProblem(request(["Host", "a"], { url: `/${"a".repeat(100)}` }), bounds)).toBe(
      connectionErrors.uriTooLong,
    );
    expect(edgeProblem(request(["Host", "a"], { url: `/${"a".repeat(99)}` }), bounds)).toBe(
      undefined,
    );
    expect(edgeProblem(request(["Host", "a", "Content-Length", "1001"]), bounds)).toBe(
      connectionErrors.payloadTooLarge,
    );
    expect(edgeProblem(request(["Host", "a", "Content-Length", "1000"]), bounds)).toBeUndefined();
  });
});
