import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { probeService, servicesRequired } from "./index.js";

describe("probeService", () => {
  it("reports an unset variable", async () => {
    expect(await probeService("redis", {})).toEqual({
      available: false,
      reason: "TEST_REDIS_URL is not set",
    });
  });

  it("reports an unreachable address and accepts a listening one", async () => {
    const server = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as { port: number };
    const up = await probeService("redis", { TEST_REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(up).toEqual({ available: true, url: `redis://127.0.0.1:${port}` });
    await new Promise((resolve) => server.close(resolve));
    const down = await probeService("redis", { TEST_REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(down.available).toBe(false);
  });

  it("checks that a browser path exists", async () => {
    const missing = await probeService("chromium", { CHROMIUM_PATH: "/nonexistent/chromium" });
    expect(missing).toEqual({
      available: false,
      reason: "CHROMIUM_PATH=/nonexistent/chromium does not exist",
    });
  });

  it("knows when services are required", () => {
    expect(servicesRequired({ REQUIRE_SERVICES: "1" })).toBe(true);
    expect(servicesRequired({})).toBe(false);
  });
});
