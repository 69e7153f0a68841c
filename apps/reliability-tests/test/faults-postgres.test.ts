/**
 * PostgreSQL faults through a TCP proxy the test cuts and restores (the machine's PostgreSQL is
 * never stopped): down at start, reset during requests, hung (connections never answered) and
 * partitioned (live connections stall). The server must answer within a bound with 503
 * `service_unavailable` and the Error body, report it on /readyz, and recover by itself.
 */

import { useService } from "@animal-store/test-support";
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { contractLimits } from "../src/contract-limits.js";
import { waitUntil } from "../src/fault-expectations.js";
import {
  type FaultMode,
  type FaultProxy,
  serviceAddress,
  startFaultProxy,
} from "../src/fault-proxy.js";
import { jsonBody, type RawResponse, send } from "../src/http-client.js";
import { createTestDatabase, type TestDatabase } from "../src/pg-database.js";
import { createKeyWithCli, type ServerProcess, spawnServer } from "../src/server-process.js";
import { listOperations, loadSpec } from "../src/spec.js";
import { createSpecValidator } from "../src/spec-validator.js";

const limits = contractLimits();

const pg = await useService("postgres", "reliability: PostgreSQL faults");
const doc = loadSpec();
const { checkResponse } = createSpecValidator(doc);
const op = (id: string) => {
  const found = listOperations(doc).find((o) => o.operationId === id);
  if (!found) throw new Error(id);
  return found;
};
/**
 * How long a request may take while PostgreSQL is unreachable (the server's pool gives up after
 * 5 s; the rest is slack for a loaded CI machine), and how long recovery may take.
 */
const FAULT_BOUND_MS = 7000;
const RECOVERY_BOUND_MS = 15_000;

describe.skipIf(!pg.available)("PostgreSQL faults", () => {
  let db: TestDatabase;
  let proxy: FaultProxy;
  let env: Record<string, string>;
  let key: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    if (!pg.available) return;
    db = await createTestDatabase(pg.url, "pgfault");
    proxy = await startFaultProxy(serviceAddress(db.url, 5432));
    env = { DATABASE_URL: proxy.rewrite(db.url) };
    key = await createKeyWithCli(
      { DATABASE_URL: db.url },
      { plan: limits.largest.name, name: "faults" },
    );
  }, 30_000);

  // A failed test must not leave the link cut for the next one.
  afterEach(() => proxy?.restore());

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill("SIGKILL")));
    await proxy?.close();
    await db?.drop();
  });

  const auth = () => ({ authorization: `Bearer ${key}` });
  const createPet = (server: ServerProcess) =>
    send(
      server.url,
      {
        method: "POST",
        target: `${basePath}/pets`,
        headers: { ...auth(), "content-type": "application/json" },
        body: JSON.stringify({ name: "Faulty", categoryId: 1 }),
      },
      FAULT_BOUND_MS + 2000,
    );
  const listPets = (server: ServerProcess) =>
    send(
      server.url,
      { method: "GET", target: `${basePath}/pets`, headers: auth() },
      FAULT_BOUND_MS + 2000,
    );
  const readyz = (server: ServerProcess) =>
    send(server.url, { method: "GET", target: "/readyz" }, FAULT_BOUND_MS + 2000);

  function expectUnavailable(res: RawResponse, opId: string | null, what: string) {
    expect(res.status, `${what}: ${res.bodyText.slice(0, 200)}`).toBe(503);
    expect(res.elapsedMs, what).toBeLessThan(FAULT_BOUND_MS);
    expect(jsonBody(res)).toMatchObject({ code: "service_unavailable", status: 503 });
    if (opId) expect(checkResponse(op(opId), res), what).toEqual([]);
  }

  function expectReadyzNamesDatabase(res: RawResponse) {
    expectUnavailable(res, null, "readyz");
    expect(jsonBody<{ message: string }>(res).message).toMatch(/database/i);
  }

  async function expectRecovery(server: ServerProcess) {
    const took = await waitUntil(
      server.url,
      { method: "GET", target: "/readyz" },
      (res) => res.status === 200,
      RECOVERY_BOUND_MS,
    );
    expect((await createPet(server)).status).toBe(201);
    return took;
  }

  function report(fault: string, during: RawResponse[], recoveredMs: number) {
    const times = during.map((r) => `${r.status} in ${Math.round(r.elapsedMs)} ms`).join(", ");
    console.info(
      `[fault] PostgreSQL ${fault}: createPet/listPets/readyz → ${times}; ` +
        `ready again ${Math.round(recoveredMs)} ms after restore`,
    );
  }

  for (const mode of ["reset", "blackhole"] as FaultMode[]) {
    it(`down at start (${mode}): the server starts, answers 503, recovers when PostgreSQL is back`, async () => {
      proxy.cut(mode);
      const starting = performance.now();
      const server = await spawnServer(env, { readyTimeoutMs: 20_000 });
      const startedMs = performance.now() - starting;
      servers.push(server);
      const ready = await readyz(server);
      expectReadyzNamesDatabase(ready);
      const created = await createPet(server);
      expectUnavailable(created, "createPet", "createPet");
      const listed = await listPets(server);
      expectUnavailable(listed, "listPets", "listPets");
      proxy.restore();
      const recovered = await expectRecovery(server);
      report(
        `down at start (${mode}), started in ${Math.round(startedMs)} ms`,
        [created, listed, ready],
        recovered,
      );
      await server.kill();
    }, 60_000);
  }

  for (const mode of ["reset", "blackhole", "freeze"] as FaultMode[]) {
    it(`lost during requests (${mode}): bounded 503s, /readyz reports it, recovery by itself`, async () => {
      const server = await spawnServer(env);
      servers.push(server);
      expect((await createPet(server)).status).toBe(201);
      expect((await listPets(server)).status).toBe(200);
      proxy.cut(mode);
      const created = await createPet(server);
      expectUnavailable(created, "createPet", "createPet");
      const listed = await listPets(server);
      expectUnavailable(listed, "listPets", "listPets");
      const ready = await readyz(server);
      expectReadyzNamesDatabase(ready);
      proxy.restore();
      const recovered = await expectRecovery(server);
      report(mode, [created, listed, ready], recovered);
      await server.kill();
    }, 60_000);
  }

  it("cut in the middle of a stream of creates: only 201 or 503, and every 201 survives", async () => {
    const streamKey = await createKeyWithCli(
      { DATABASE_URL: db.url },
      { plan: limits.customPlan, name: "stream", perMinute: 1_000_000, perDay: 10_000_000 },
    );
    const server = await spawnServer(env);
    servers.push(server);
    const answers: RawResponse[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let n = 0; !stop; n++) {
        const res = await send(
          server.url,
          {
            method: "POST",
            target: `${basePath}/pets`,
            headers: { authorization: `Bearer ${streamKey}`, "content-type": "application/json" },
            body: JSON.stringify({ name: `stream-${w}-${n}`, categoryId: 1 + w }),
          },
          FAULT_BOUND_MS + 2000,
        );
        answers.push(res);
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) =>
      writer(w).catch((err: Error) => {
        throw new Error(`${err.message}; server said: ${server.output().slice(-3000)}`);
      }),
    );
    await new Promise((r) => setTimeout(r, 300 + Math.random() * 400));
    proxy.cut("reset");
    await new Promise((r) => setTimeout(r, 500));
    proxy.restore();
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await Promise.all(writers);
    const statuses = answers.map((r) => r.status);
    console.info(
      `[fault] PostgreSQL reset mid-stream: ${statuses.filter((x) => x === 201).length} × 201, ` +
        `${statuses.filter((x) => x === 503).length} × 503, slowest ` +
        `${Math.round(Math.max(...answers.map((r) => r.elapsedMs)))} ms`,
    );
    expect(
      statuses.filter((x) => x !== 201 && x !== 503),
      server.output(),
    ).toEqual([]);
    expect(statuses).toContain(503);
    for (const res of answers) expect(res.elapsedMs).toBeLessThan(FAULT_BOUND_MS);
    await expectRecovery(server);
    const acknowledged = answers
      .filter((r) => r.status === 201)
      .map((r) => jsonBody<{ id: number }>(r));
    const ids = acknowledged.map((p) => p.id);
    const rows = await db.query<{ id: number }>(
      "SELECT id::int AS id FROM pets WHERE id = ANY($1)",
      [ids],
    );
    expect(rows.length).toBe(ids.length);
  }, 60_000);
});
