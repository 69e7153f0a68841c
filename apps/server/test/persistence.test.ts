/**
 * Storage on the embedded SQLite file: WAL with synchronous=FULL, and everything (pets, keys,
 * the id sequence) survives closing and reopening the same file behind a new app.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Pet } from "@animal-store/api-types";
import Database from "libsql";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite.js";
import { expectError, postJson, startTestApp, tempDir } from "./support/test-app.js";

const temp = tempDir();
afterAll(() => temp.remove());

describe("SQLite persistence", () => {
  it("runs in WAL mode with synchronous=FULL", async () => {
    const store = await openSqliteStore(join(temp.dir, "pragmas.db"));
    try {
      expect(store.durability()).toEqual({ journalMode: "wal", synchronous: 2 });
    } finally {
      await store.close();
    }
  });

  it("filters by status and pages by id through the index, without sorting", async () => {
    const file = join(temp.dir, "plan.db");
    await (await openSqliteStore(file)).close();
    const db = new Database(file);
    try {
      const plan = (query: string) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${query}`).all() as Array<{ detail: string }>)
          .map((row) => row.detail)
          .join("; ");
      const filtered = plan('select * from "pets" where "status" = ? order by "id" limit ?');
      expect(filtered).toMatch(/USING (COVERING )?INDEX pets_status_id \(status=\?\)/);
      expect(filtered).not.toContain("TEMP B-TREE");
      const all = plan('select * from "pets" order by "id" limit ?');
      expect(all).toMatch(/^SCAN pets$/);
    } finally {
      db.close();
    }
  });

  it("creates missing directories for the file", async () => {
    const file = join(temp.dir, "a", "b", "nested.db");
    const store = await openSqliteStore(file);
    await store.close();
    expect(existsSync(file)).toBe(true);
  });

  it("keeps pets and keys across a restart on the same file", async () => {
    const file = join(temp.dir, "restart.db");
    const first = await startTestApp({ store: await openSqliteStore(file) });
    const key = first.key;
    const pets: Pet[] = [];
    for (const body of [
      { name: "Rex", categoryId: 1, status: "available" },
      { name: "Nemo", categoryId: 3 },
    ]) {
      const response = await postJson(first, body);
      pets.push((await response.json()) as Pet);
    }
    const revokedKey = await first.createKey({ name: "revoked later" });
    await first.close();

    const second = await startTestApp({ store: await openSqliteStore(file) });
    try {
      const headers = { authorization: `Bearer ${key}` };
      const list = await second.api("/pets", { headers });
      expect(await list.json()).toEqual(pets);
      for (const pet of pets) {
        expect(await (await second.api(`/pets/${pet.id}`, { headers })).json()).toEqual(pet);
      }
      const [keyRecord] = (await second.store.listApiKeys()).filter(
        (k) => k.name === "revoked later",
      );
      await second.store.revokeApiKey(keyRecord?.id ?? "", new Date().toISOString());
      const next = (await (await postJson(second, { name: "Tom", categoryId: 2 })).json()) as Pet;
      expect(next.id).toBeGreaterThan(Math.max(...pets.map((pet) => pet.id)));
    } finally {
      await second.close();
    }

    const third = await startTestApp({ store: await openSqliteStore(file) });
    try {
      const response = await third.api("/pets", {
        headers: { authorization: `Bearer ${revokedKey}` },
      });
      await expectError(response, 401, "invalid_api_key");
      expect((await (await third.api("/pets")).json()) as Pet[]).toHaveLength(3);
    } finally {
      await third.close();
    }
  });
  it("commits creates that arrive together in one transaction, and settles each after it", async () => {
    const store = await openSqliteStore(join(temp.dir, "group.db"));
    const raw = (store as unknown as { raw: Database.Database }).raw;
    const exec = raw.exec.bind(raw);
    const statements: string[] = [];
    raw.exec = (sql: string) => {
      statements.push(sql);
      return exec(sql);
    };
    try {
      const created = await Promise.all(
        Array.from({ length: 40 }, (_, i) => store.createPet({ name: `pet ${i}`, categoryId: 1 })),
      );
      expect(statements.filter((sql) => sql === "COMMIT")).toHaveLength(1);
      expect(new Set(created.map((pet) => pet.id)).size).toBe(40);
      expect(created[39]).toEqual({
        id: (created[0]?.id ?? 0) + 39,
        name: "pet 39",
        categoryId: 1,
      });
      expect(await store.listPets({ limit: 100 })).toHaveLength(40);
    } finally {
      await store.close();
    }
  });

  it("fails only the create the database refuses when they were batched together", async () => {
    const file = join(temp.dir, "refuse.db");
    await (await openSqliteStore(file)).close();
    const db = new Database(file);
    db.exec(
      "create trigger refuse before insert on pets when new.name = 'refused' " +
        "begin select raise(abort, 'refused by trigger'); end",
    );
    db.close();
    const store = await openSqliteStore(file);
    try {
      const results = await Promise.allSettled(
        ["first", "refused", "last"].map((name) => store.createPet({ name, categoryId: 2 })),
      );
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect((await store.listPets({ limit: 10 })).map((pet) => pet.name)).toEqual([
        "first",
        "last",
      ]);
    } finally {
      await store.close();
    }
  });
});
