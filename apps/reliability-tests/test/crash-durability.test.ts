/**
 * Crash durability, one harness for both engines: a stream of creates, SIGKILL at a random
 * moment, a restart on the same data, and every pet whose 201 arrived must be there unchanged.
 */

import { randomInt } from "node:crypto";
import { useService } from "@animal-store/test-support";
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractLimits } from "../src/contract-limits.js";
import { type EngineSetup, postgresSetup, sqliteSetup } from "../src/engine-setups.js";
import { jsonBody, send } from "../src/http-client.js";
import { createKeyWithCli, type ServerProcess, spawnServer } from "../src/server-process.js";

const limits = contractLimits();

const pg = await useService("postgres", "reliability: crash durability on PostgreSQL");
/** Creates in flight while the process is killed, and the window the kill falls in. */
const STREAM = { concurrency: 8, killAfterMs: { min: 300, max: 1500 } };
const ROUNDS = 2;

type Pet = { id: number; name: string; categoryId: number; status?: string };

const engines: { name: string; enabled: boolean; setup: () => Promise<EngineSetup> }[] = [
  { name: "SQLite", enabled: true, setup: async () => sqliteSetup("crash") },
  { name: "PostgreSQL", enabled: pg.available, setup: () => postgresSetup("crash", pg, null) },
];

/** Streams creates until the server dies; resolves with the pets whose 201 was received. */
async function createUntilKilled(server: ServerProcess, key: string, round: number) {
  const acknowledged: Pet[] = [];
  let attempted = 0;
  let dead = false;
  const killAt = randomInt(STREAM.killAfterMs.min, STREAM.killAfterMs.max);
  const killer = new Promise<void>((resolve) =>
    setTimeout(async () => {
      await server.kill("SIGKILL");
      dead = true;
      resolve();
    }, killAt),
  );
  const worker = async (w: number) => {
    for (let n = 0; !dead; n++) {
      attempted++;
      const body = { name: `crash-${round}-${w}-${n}`, categoryId: 1 + w, status: "pending" };
      try {
        const res = await send(server.url, {
          method: "POST",
          target: `${basePath}/pets`,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        if (res.status === 201) {
          const pet = jsonBody<Pet>(res);
          expect(pet).toMatchObject(body);
          acknowledged.push(pet);
        } else if (!dead) {
          throw new Error(`create answered ${res.status} before the kill: ${res.bodyText}`);
        }
      } catch (err) {
        if (!dead && !/ECONNRESET|ECONNREFUSED|socket hang up/.test(String(err))) throw err;
      }
    }
  };
  await Promise.all([killer, ...Array.from({ length: STREAM.concurrency }, (_, w) => worker(w))]);
  return { acknowledged, attempted, killAt };
}

for (const engine of engines) {
  describe.skipIf(!engine.enabled)(`crash durability on ${engine.name}`, () => {
    let setup: EngineSetup;
    let server: ServerProcess | undefined;

    beforeAll(async () => {
      setup = await engine.setup();
    }, 30_000);

    afterAll(async () => {
      await server?.kill("SIGKILL");
      await setup?.cleanup();
    });

    it(`after SIGKILL mid-stream (${ROUNDS} rounds), every acknowledged pet is present`, async () => {
      const key = await createKeyWithCli(setup.env, {
        plan: limits.customPlan,
        name: "crash",
        perMinute: 1_000_000,
        perDay: 10_000_000,
      });
      const everAcknowledged: Pet[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        server = await spawnServer(setup.env);
        const { acknowledged, attempted, killAt } = await createUntilKilled(server, key, round);
        console.info(
          `[crash] ${engine.name} round ${round}: SIGKILL at ${killAt} ms, ` +
            `${acknowledged.length} acknowledged of ${attempted} attempted creates`,
        );
        expect(acknowledged.length).toBeGreaterThan(0);
        everAcknowledged.push(...acknowledged);
      }
      server = await spawnServer(setup.env);
      const alive = server;
      const missing: Pet[] = [];
      for (const pet of everAcknowledged) {
        const res = await send(alive.url, {
          method: "GET",
          target: `${basePath}/pets/${pet.id}`,
          headers: { authorization: `Bearer ${key}` },
        });
        if (res.status !== 200) missing.push(pet);
        else expect(jsonBody(res)).toEqual(pet);
      }
      expect(missing).toEqual([]);
      expect(new Set(everAcknowledged.map((p) => p.id)).size).toBe(everAcknowledged.length);
    }, 120_000);
  });
}
