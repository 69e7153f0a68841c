import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "./free-port.js";

describe("freePort", () => {
  it("gives a loopback port nothing listens on, which a listener can then take", async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    expect((server.address() as { port: number }).port).toBe(port);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
