import { once } from "node:events";
import { connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultProxy, serviceAddress, startFaultProxy } from "./fault-proxy.js";

let echo: Server;
let proxy: FaultProxy;

beforeAll(async () => {
  echo = createServer((s) => s.pipe(s));
  echo.listen(0, "127.0.0.1");
  await once(echo, "listening");
  const address = echo.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  proxy = await startFaultProxy({ host: "127.0.0.1", port: address.port });
});

afterAll(async () => {
  await proxy.close();
  echo.close();
});

/** Sends `text` and resolves with the reply, or with how the exchange ended. */
function exchange(text: string, waitMs = 500): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = connect({ host: "127.0.0.1", port: proxy.port });
    const timer = setTimeout(() => finish("timeout"), waitMs);
    const finish = (result: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    socket.on("data", (d) => finish(`reply:${d.toString()}`));
    socket.on("error", (e: NodeJS.ErrnoException) => finish(`error:${e.code}`));
    socket.on("close", () => finish("closed"));
    socket.write(text);
  });
}

describe("fault proxy", () => {
  it("forwards bytes both ways", async () => {
    expect(await exchange("ping")).toBe("reply:ping");
  });

  it("reset mode drops live connections and resets new ones", async () => {
    const live = connect({ host: "127.0.0.1", port: proxy.port });
    live.on("error", () => {});
    live.write("x");
    await once(live, "data");
    expect(proxy.liveConnections).toBe(1);
    const closed = new Promise((resolve) => live.on("close", resolve));
    proxy.cut("reset");
    await closed;
    expect(proxy.liveConnections).toBe(0);
    expect(await exchange("ping")).toMatch(/^(error:ECONNRESET|closed)$/);
    proxy.restore();
    expect(await exchange("ping")).toBe("reply:ping");
  });

  it("blackhole mode accepts but never answers until restored", async () => {
    proxy.cut("blackhole");
    expect(await exchange("ping", 300)).toBe("timeout");
    proxy.restore();
    expect(await exchange("ping")).toBe("reply:ping");
  });

  it("freeze mode stalls live connections without closing them, and thaws on restore", async () => {
    const live = connect({ host: "127.0.0.1", port: proxy.port });
    live.on("error", () => {});
    live.write("a");
    await once(live, "data");
    proxy.cut("freeze");
    const replies: string[] = [];
    live.on("data", (d) => replies.push(d.toString()));
    live.write("b");
    await new Promise((r) => setTimeout(r, 300));
    expect(replies).toEqual([]);
    expect(live.destroyed).toBe(false);
    expect(await exchange("new", 300)).toBe("timeout");
    proxy.restore();
    await new Promise((r) => setTimeout(r, 200));
    expect(replies.join("")).toBe("b");
    live.destroy();
  });

  it("rewrites service URLs to itself, keeping credentials, path and query", () => {
    const url = proxy.rewrite("postgres://postgres@db.example:5432/test?options=-csearch_path%3Dx");
    expect(url).toBe(`postgres://postgres@127.0.0.1:${proxy.port}/test?options=-csearch_path%3Dx`);
    expect(serviceAddress("redis://127.0.0.1", 6379)).toEqual({ host: "127.0.0.1", port: 6379 });
  });
});
