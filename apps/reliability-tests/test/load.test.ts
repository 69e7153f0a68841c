/**
 * A bounded loopback load test against one server process per engine: a stated number of
 * requests (stopping by itself at a deadline), zero 5xx, zero lost acknowledged writes, and exact
 * rate-limit counts under concurrency. Not a benchmark: it reports throughput, asserts none.
 */

import { useService } from "@animal-store/test-support";
import { awayFromMinuteEdge } from "@animal-store/test-support/minute-window";
import { basePath, pagedList } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBoundedLoad } from "../src/bounded-load.js";
import { contractLimits } from "../src/contract-limits.js";
import { type EngineSetup, postgresSetup, sqliteSetup } from "../src/engine-setups.js";
import { jsonBody, send } from "../src/http-client.js";
import { createKeyWithCli, type ServerProcess, spawnServer } from "../src/server-process.js";
import { listOperations, loadSpec } from "../src/spec.js";
import { createSpecValidator } from "../src/spec-validator.js";

const limits = contractLimits();

const doc = loadSpec();
const { checkResponse } = createSpecValidator(doc);
const operation = Object.fromEntries(listOperations(doc).map((op) => [op.operationId, op]));
const pg = await useService("postgres", "reliability: load on PostgreSQL + Redis");
const redis = await useService("redis", "reliability: load on PostgreSQL + Redis");
/** The load: this many requests, this many in flight, and no new request after the deadline. */
const LOAD = { total: 5000, concurrency: 32, deadlineMs: 45_000 };
/** The quota test: a key allowing QUOTA requests a minute receives BURST concurrent requests. */
const QUOTA = 50;
const BURST = 200;

const engines: { name: string; enabled: boolean; setup: () => Promise<EngineSetup> }[] = [
  { name: "SQLite", enabled: true, setup: async () => sqliteSetup("load") },
  {
    name: "PostgreSQL + Redis",
    enabled: pg.available && redis.available,
    setup: () => postgresSetup("load", pg, redis),
  },
];

for (const engine of engines) {
  describe.skipIf(!engine.enabled)(`load on ${engine.name}`, () => {
    let setup: EngineSetup;
    let server: ServerProcess;

    beforeAll(async () => {
      setup = await engine.setup();
      server = await spawnServer(setup.env);
    }, 60_000);

    afterAll(async () => {
      await server?.kill();
      await setup?.cleanup();
    });

    it(`${LOAD.total} mixed requests, ${LOAD.concurrency} in flight: no 5xx, no lost write`, async () => {
      const key = await createKeyWithCli(setup.env, {
        plan: limits.customPlan,
        name: "load",
        perMinute: 1_000_000,
        perDay: 10_000_000,
      });
      const headers = { authorization: `Bearer ${key}` };
      const created: { id: number; name: string; categoryId: number; status?: string }[] = [];
      const statuses = new Map<number, number>();
      let offContract = 0;
      const report = await runBoundedLoad({
        total: LOAD.total,
        concurrency: LOAD.concurrency,
        deadlineMs: LOAD.deadlineMs,
        task: async (i) => {
          const kind = i % 10 < 5 ? "create" : i % 10 < 9 ? "list" : "get";
          const res =
            kind === "create"
              ? await send(server.url, {
                  method: "POST",
                  target: `${basePath}/pets`,
                  headers: { ...headers, "content-type": "application/json" },
                  body: JSON.stringify({
                    name: `load-${i}`,
                    categoryId: 1 + (i % 7),
                    status: "available",
                  }),
                })
              : kind === "list"
                ? await send(server.url, {
                    method: "GET",
                    target: `${basePath}/pets?limit=${1 + (i % pagedList().max)}`,
                    headers,
                  })
                : await send(server.url, {
                    method: "GET",
                    target: `${basePath}/pets/${1 + (i % 50)}`,
                    headers,
                  });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const op =
            operation[kind === "create" ? "createPet" : kind === "list" ? "listPets" : "getPet"];
          if (op) offContract += checkResponse(op, res).length > 0 ? 1 : 0;
          if (res.status === 201) created.push(jsonBody(res));
          return res.status;
        },
      });
      const perSecond = Math.round((report.results.length / report.elapsedMs) * 1000);
      console.info(
        `[load] ${engine.name}: ${report.results.length} requests in ${Math.round(report.elapsedMs)} ms ` +
          `(${perSecond}/s, ${LOAD.concurrency} in flight), statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
      );
      expect(report.results.filter((s) => s >= 500)).toEqual([]);
      expect(offContract, "responses that do not validate against the spec").toBe(0);
      expect(report.results.every((s) => s === 200 || s === 201 || s === 404)).toBe(true);
      expect(created.length).toBeGreaterThan(0);
      expect(new Set(created.map((p) => p.id)).size).toBe(created.length);
      // Every acknowledged write is there, unchanged.
      const check = await runBoundedLoad({
        total: created.length,
        concurrency: LOAD.concurrency,
        deadlineMs: 60_000,
        task: async (j) => {
          const pet = created[j];
          const res = await send(server.url, {
            method: "GET",
            target: `${basePath}/pets/${pet?.id}`,
            headers,
          });
          return { pet, status: res.status, body: res.status === 200 ? jsonBody(res) : null };
        },
      });
      expect(check.results).toHaveLength(created.length);
      for (const { pet, status, body } of check.results) {
        expect(status).toBe(200);
        expect(body).toEqual(pet);
      }
    }, 120_000);

    it(`${BURST} concurrent requests on a key with ${QUOTA} remaining: exactly ${QUOTA} succeed`, async () => {
      const key = await createKeyWithCli(setup.env, {
        plan: limits.customPlan,
        name: "quota",
        perMinute: QUOTA,
        perDay: 1_000_000,
      });
      await awayFromMinuteEdge(10_000);
      const report = await runBoundedLoad({
        total: BURST,
        concurrency: BURST,
        deadlineMs: 30_000,
        task: async () =>
          send(server.url, {
            method: "GET",
            target: `${basePath}/pets?limit=1`,
            headers: { authorization: `Bearer ${key}` },
          }),
      });
      const codes = report.results.map((r) =>
        r.status === 429 ? jsonBody<{ code: string }>(r).code : r.status,
      );
      expect(report.results).toHaveLength(BURST);
      expect(codes.filter((c) => c === 200)).toHaveLength(QUOTA);
      // Default ban threshold: the refusals beyond it become bans, all of them 429.
      expect(report.results.filter((r) => r.status === 429)).toHaveLength(BURST - QUOTA);
      const remaining = report.results.map((r) => Number(r.headers.get("x-ratelimit-remaining")));
      expect(new Set(remaining.filter((_, i) => report.results[i]?.status === 200)).size).toBe(
        QUOTA,
      );
    }, 60_000);
  });
}
