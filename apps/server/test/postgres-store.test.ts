/**
 * The PostgreSQL store against a real PostgreSQL (TEST_DATABASE_URL), in a fresh schema per
 * file: the same behaviour as SQLite (ids, order, filter, status omitted, keys), concurrent
 * migrations from several instances, and the whole API over it.
 */

import { randomBytes } from "node:crypto";
import type { Pet } from "@animal-store/api-types";
import { hashApiKey, issueApiKey } from "@animal-store/openapi-engine";
import { useService } from "@animal-store/test-support";
import { basePath, pagedList } from "@animal-store/test-support/spec-values";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFrom } from "../src/animal-store.js";
import { openStore, type Store } from "../src/store/index.js";
import { openPostgresStore } from "../src/store/postgres.js";
import { policy, roomyPlan } from "./support/contract.js";
import { expectError, postJson, startTestApp } from "./support/test-app.js";

const postgres = await useService("postgres", "server PostgreSQL store");
const schema = `srv_${randomBytes(6).toString("hex")}`;

describe.skipIf(!postgres.available)("PostgreSQL store", { timeout: 20_000 }, () => {
  const url = postgres.available ? postgres.url : "";
  let store: Store;
  beforeAll(async () => {
    store = await openStore(configFrom({ DATABASE_URL: url, DATABASE_SCHEMA: schema }).database);
  });
  afterAll(async () => {
    await store?.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  });

  it("migrates concurrently from several instances on one schema", async () => {
    const others = await Promise.all(
      [1, 2, 3].map(() => openPostgresStore({ url, schema, maxConnections: 2 })),
    );
    await Promise.all(others.map((other) => other.check()));
    await Promise.all(others.map((other) => other.close()));
    expect(store.engine).toBe("postgres");
  });

  it("migrates a second schema while this one already holds its tables (two deployments, one database)", async () => {
    const second = `${schema}_b`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const other = await openPostgresStore({ url, schema: second, maxConnections: 2 });
      try {
        const pet = await other.createPet({ name: "Second", categoryId: 1 });
        expect(await other.listPets({ limit: 10 })).toEqual([pet]);
      } finally {
        await other.close();
      }
      const { rows } = await client.query<{ tablename: string }>(
        "select tablename from pg_tables where schemaname = $1 order by tablename",
        [second],
      );
      expect(rows.map((row) => row.tablename)).toEqual([
        "api_keys",
        "kysely_migration",
        "kysely_migration_lock",
        "pets",
      ]);
    } finally {
      await client.query(`drop schema if exists ${second} cascade`);
      await client.end();
    }
  });

  it("stores pets with numeric ids, the largest values, and no status when none was given", async () => {
    const rex = await store.createPet({
      name: "Rex",
      categoryId: Number.MAX_SAFE_INTEGER,
      status: "sold",
    });
    const nemo = await store.createPet({ name: "Nemo", categoryId: 3 });
    expect(rex).toEqual({
      id: expect.any(Number),
      name: "Rex",
      categoryId: Number.MAX_SAFE_INTEGER,
      status: "sold",
    });
    expect(Object.keys(nemo).sort()).toEqual(["categoryId", "id", "name"]);
    expect(nemo.id).toBeGreaterThan(rex.id);
    expect(await store.getPet(rex.id)).toEqual(rex);
    expect(await store.getPet(Number.MAX_SAFE_INTEGER)).toBeNull();
  });

  it("lists in ascending id order with limit and status in SQL", async () => {
    for (let i = 0; i < 12; i++) {
      await store.createPet({
        name: `p${i}`,
        categoryId: 1,
        ...(i % 3 === 0 ? { status: "available" as const } : {}),
      });
    }
    const all = await store.listPets({ limit: 100 });
    expect(all.map((pet) => pet.id)).toEqual([...all.map((pet) => pet.id)].sort((a, b) => a - b));
    expect(await store.listPets({ limit: 3 })).toEqual(all.slice(0, 3));
    const available = all.filter((pet) => pet.status === "available");
    expect(await store.listPets({ limit: 100, status: "available" })).toEqual(available);
    expect(await store.listPets({ limit: 2, status: "available" })).toEqual(available.slice(0, 2));
    expect(await store.listPets({ limit: 5, status: "pending" })).toEqual([]);
  });

  it("keeps keys as hashes; the first revocation time wins", async () => {
    const { key, record } = await issueApiKey(store, policy, { plan: roomyPlan, name: "pg" });
    expect(await store.findApiKeyByHash(hashApiKey(key))).toEqual(record);
    const first = await store.revokeApiKey(record.id, "2030-01-01T00:00:00.000Z");
    const again = await store.revokeApiKey(record.id, "2031-01-01T00:00:00.000Z");
    expect(first?.revokedAt).toBe("2030-01-01T00:00:00.000Z");
    expect(again?.revokedAt).toBe("2030-01-01T00:00:00.000Z");
    expect(await store.revokeApiKey("key_missing", "2030-01-01T00:00:00.000Z")).toBeNull();
    expect((await store.listApiKeys()).map((k) => k.id)).toContain(record.id);
    expect(await store.countApiKeys()).toBeGreaterThanOrEqual(1);
  });

  it("serves the API over PostgreSQL", async () => {
    const apiStore = await openPostgresStore({ url, schema });
    const app = await startTestApp({ store: apiStore });
    try {
      const created = await postJson(app, { name: "Tom", categoryId: 2, status: "pending" });
      expect(created.status).toBe(201);
      const pet = (await created.json()) as Pet;
      expect(await (await app.api(`/pets/${pet.id}`)).json()).toEqual(pet);
      const pending = (await (
        await app.api(`/pets?status=pending&limit=${pagedList().max}`)
      ).json()) as Pet[];
      expect(pending).toContainEqual(pet);
      await expectError(await app.api("/pets/9007199254740991"), 404, "not_found");
      await expectError(await fetch(`${app.url}${basePath}/pets`), 401, "unauthorized");
    } finally {
      await app.close();
    }
  });
});
