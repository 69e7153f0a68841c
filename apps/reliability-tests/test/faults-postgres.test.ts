/**
 * PostgreSQL faults through a TCP proxy the test cuts and restores (the machine's PostgreSQL is
 * never stopped): down at start, reset during requests, hung (connections never answered) and
 * partitioned (live connections stall). The server must answer within a bound with 503
 * `service_unavailable` and the Error body, report it on /readyz, and recover by itself.
 */
import { useService } from "@animal-store/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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
    key = await createKeyWithCli({ DATABASE_URL: db.url }, { plan: "pro", name: "faults" });
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
        target: "/v1/pets",
        headers: { ...auth(), "content-type": "application/json" },
        body: JSON.stringify({ name: "Faulty", categoryId: 1 }),
      },
      FAULT_BOUND_MS + 2000,
    );
  const listPets = (server: ServerProcess) =>
    send(server.url, { method: "GET", target: "/v1/pets", headers: auth() }, FAULT_BOUND_MS + 2000);
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

  it("down at start: the server starts, answers 503, and recovers when PostgreSQL is back", async () => {
    proxy.cut("reset");
    const server = await spawnServer(env);
    servers.push(server);
    const ready = await readyz(server);
    expectReadyzNamesDatabase(ready);
    const created = await createPet(server);
    expectUnavailable(created, "createPet", "createPet");
    const listed = await listPets(server);
    expectUnavailable(listed, "listPets", "listPets");
    proxy.restore();
    const recovered = await expectRecovery(server);
    report("down at start", [created, listed, ready], recovered);
  }, 60_000);

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
});
