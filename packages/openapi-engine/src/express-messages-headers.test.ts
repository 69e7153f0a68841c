import { createServer, type ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import {
  HEADER_TABLE,
  presetHeaders,
  presetIsDirect,
  setEngineHeader,
} from "./express-messages.js";
import { staticResponseHeaders } from "./http-server/http-server.js";

/** A fresh response's first header set by the engine: its table is the engine's. */
const engineHeadersOnly = (res: ServerResponse) => setEngineHeader(res, "x-one", "X-One", "1");

const TRANSPORT = new Set(["date", "connection", "keep-alive", "content-length", "content-type"]);

/** What a client receives from a server that runs `run` on each answer (a 204). */
async function received(run: (res: ServerResponse) => void): Promise<[string, string][]> {
  const server = createServer((_req, res) => {
    run(res);
    res.statusCode = 204;
    res.end();
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}/`);
  await new Promise((resolve) => server.close(resolve));
  return [...res.headers].filter(([name]) => !TRANSPORT.has(name));
}

describe("presetHeaders", () => {
  const headers = staticResponseHeaders();
  const viaSetHeader = (res: ServerResponse) => {
    for (const [name, value] of headers) res.setHeader(name, value);
  };

  it("writes Node's header table directly on this Node (an upgrade that breaks it is noticed)", () => {
    expect(presetIsDirect).toBe(true);
  });

  it("sends exactly what setHeader would, and Node reads them back", async () => {
    const preset = presetHeaders(headers);
    expect(await received(preset)).toEqual(await received(viaSetHeader));
    let seen: unknown;
    await received((res) => {
      preset(res);
      seen = res.getHeader("cache-control");
    });
    expect(seen).toBe("no-store");
  });

  it("keeps a header set before it, and later setHeader and appendHeader calls", async () => {
    const preset = presetHeaders(headers);
    const answer = await received((res) => {
      res.setHeader("X-Earlier", "1");
      preset(res);
      res.setHeader("Cache-Control", "private");
      res.appendHeader("Vary", "Origin");
    });
    const names = Object.fromEntries(answer);
    expect(names["x-earlier"]).toBe("1");
    expect(names["cache-control"]).toBe("private");
    expect(names.vary).toBe("Origin");
    expect(names["x-frame-options"]).toBe("DENY");
  });

  it("gives every response its own table (one answer's edit never reaches the next)", async () => {
    const preset = presetHeaders(headers);
    await received((res) => {
      preset(res);
      res.appendHeader("Cache-Control", "private");
    });
    const next = Object.fromEntries(await received(preset));
    expect(next["cache-control"]).toBe("no-store");
  });

  it("makes tables that inherit nothing, as Node's own (no header named like an Object member)", async () => {
    const preset = presetHeaders(headers);
    for (const start of [preset, engineHeadersOnly]) {
      let seen: unknown;
      await received((res) => {
        start(res);
        const before = ["constructor", "tostring", "__proto__"].map((name) => res.hasHeader(name));
        res.setHeader("__proto__", "1");
        seen = [before, res.getHeader("__proto__"), res.getHeaderNames().includes("__proto__")];
      });
      expect(seen).toEqual([[false, false, false], "1", true]);
    }
  });

  it("makes every app's tables with one constructor, so they share one hidden class", async () => {
    const tables: object[] = [];
    // Two apps of one process (the warm-up's and the real one) preset the same headers.
    for (const preset of [presetHeaders(headers), presetHeaders([...headers])]) {
      await received((res) => {
        preset(res);
        tables.push((res as unknown as Record<symbol, object>)[HEADER_TABLE] as object);
      });
    }
    const [first, second] = tables as [object, object];
    expect(tables).toHaveLength(2);
    expect(Object.getPrototypeOf(first)).toBe(Object.getPrototypeOf(second));
    expect(Object.getPrototypeOf(first)).not.toBeNull();
  });

  it("refuses at start a header Node would refuse", () => {
    expect(() => presetHeaders([["Bad Name", "x"]])).toThrow();
    expect(() => presetHeaders([["X-Ok", "bad\nvalue"]])).toThrow();
  });
});

describe("setEngineHeader", () => {
  const engineHeaders = (res: ServerResponse) => {
    setEngineHeader(res, "x-request-id", "X-Request-Id", "abc-1");
    setEngineHeader(res, "x-ratelimit-remaining", "X-RateLimit-Remaining", 41);
  };

  it("sends exactly what setHeader would, on a fresh response and after other headers", async () => {
    const viaSetHeader = (res: ServerResponse) => {
      res.setHeader("X-Request-Id", "abc-1");
      res.setHeader("X-RateLimit-Remaining", 41);
    };
    expect(await received(engineHeaders)).toEqual(await received(viaSetHeader));
    const preset = presetHeaders(staticResponseHeaders());
    expect(
      await received((res) => {
        preset(res);
        engineHeaders(res);
      }),
    ).toEqual(
      await received((res) => {
        preset(res);
        viaSetHeader(res);
      }),
    );
    let seen: unknown;
    await received((res) => {
      engineHeaders(res);
      seen = [res.getHeader("x-ratelimit-remaining"), res.getHeaderNames()];
    });
    expect(seen).toEqual([41, ["x-request-id", "x-ratelimit-remaining"]]);
  });

  it("refuses, as setHeader does, once the head is sent", async () => {
    let thrown: unknown;
    await received((res) => {
      res.flushHeaders();
      try {
        setEngineHeader(res, "x-late", "X-Late", "1");
      } catch (error) {
        thrown = error;
      }
    });
    expect(thrown).toMatchObject({ code: "ERR_HTTP_HEADERS_SENT" });
  });
});
