/**
 * Every acknowledged write survives a crash: the built server is killed with SIGKILL right after
 * its 201s (with more writes still in flight), restarted on the same SQLite file, and every
 * acknowledged pet is there, unchanged.
 */

import { join } from "node:path";
import type { Pet } from "@animal-store/api-types";
import { basePath, pagedList } from "@animal-store/test-support/spec-values";
import { afterAll, describe, expect, it } from "vitest";
import { followNext, idsOf } from "./support/paging.js";
import { createKeyIn, kill, type ServerProcess, spawnServer } from "./support/server-process.js";
import { tempDir } from "./support/test-app.js";

const temp = tempDir();
const file = join(temp.dir, "crash.db");
const env = { DATABASE_URL: `file:${file}` };
let server: ServerProcess | undefined;
afterAll(async () => {
  await kill(server);
  temp.remove();
});

function post(url: string, key: string, i: number): Promise<Response> {
  return fetch(`${url}${basePath}/pets`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: `crash ${i}`,
      categoryId: i + 1,
      ...(i % 2 ? { status: "sold" } : {}),
    }),
  });
}

describe("durability of acknowledged writes", { timeout: 30_000 }, () => {
  it("keeps every pet acknowledged before SIGKILL", async () => {
    const key = await createKeyIn(file);

    server = await spawnServer(env);
    const acknowledged: Pet[] = [];
    const settle = async (response: Response) => {
      if (response.status === 201) acknowledged.push((await response.json()) as Pet);
    };
    // Waves of concurrent writes; the last wave is still in flight when the process dies.
    for (let wave = 0; wave < 8; wave++) {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => post(server?.url ?? "", key, wave * 10 + i)),
      );
      await Promise.all(responses.map(settle));
    }
    const inFlight = Array.from({ length: 10 }, (_, i) =>
      post(server?.url ?? "", key, 80 + i).then(settle, () => undefined),
    );
    await new Promise((resolve) => setImmediate(resolve));
    server.child.kill("SIGKILL");
    const { signal } = await server.exited;
    expect(signal).toBe("SIGKILL");
    await Promise.all(inFlight);
    expect(acknowledged.length).toBeGreaterThanOrEqual(80);

    server = await spawnServer(env);
    for (const pet of acknowledged) {
      const response = await fetch(`${server.url}${basePath}/pets/${pet.id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(pet);
    }
    // Every page of the list, followed by its next links: the spec's largest page may hold fewer
    // pets than were acknowledged.
    const pages = await followNext(
      (url) => fetch(url, { headers: { authorization: `Bearer ${key}` } }),
      `${server.url}${basePath}/pets?limit=${pagedList().max}`,
    );
    expect(idsOf(pages)).toEqual(expect.arrayContaining(acknowledged.map((pet) => pet.id)));
  });
});
