/**
 * startServer, the Animal Store's public entry other packages use: its composition listens on
 * PORT=0, warms up without writing anything to its store, creates keys, and closes gracefully
 * (idempotently). The start sequence's options (clock, key lookup, ops routes, refusals) are the
 * engine's, tested in packages/openapi-engine/test/start-engine.test.ts.
 */

import { join } from "node:path";
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../src/index.js";
import { tempDir } from "./support/test-app.js";

const temp = tempDir();
afterAll(() => temp.remove());

describe("startServer", () => {
  it("serves the API on an ephemeral port, with keys it creates, and closes", async () => {
    const server = await startServer({
      NODE_ENV: "test",
      PORT: "0",
      LOG_LEVEL: "silent",
      DATABASE_URL: `file:${join(temp.dir, "start.db")}`,
    });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.config.validateResponses).toBe(true);
      const key = await server.createKey({ plan: "pro", name: "start" });
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      // Warm-up ran a create; it must not have stored anything.
      expect(await (await fetch(`${server.url}${basePath}/pets`, { headers })).json()).toEqual([]);
      expect(await server.store.countApiKeys()).toBe(1);
      const created = await fetch(`${server.url}${basePath}/pets`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Rex", categoryId: 1 }),
      });
      expect(created.status).toBe(201);
      expect(await server.store.listPets({ limit: 10 })).toEqual([await created.json()]);
    } finally {
      await server.close();
    }
    await server.close();
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});
