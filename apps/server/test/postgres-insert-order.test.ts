/**
 * On PostgreSQL, creates commit in id order (migration 0002), which keyset paging needs: while one
 * transaction holds an uncommitted insert (id N), any other insert, from this instance or another
 * connection, single or multi-row, waits before drawing an id, so no reader can see N+1 while N is
 * still to come. The same scenario with the trigger dropped (the planted fault) shows what the
 * test catches: the later insert commits first and a reader passes the held id by.
 */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { useService } from "@animal-store/test-support";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "../src/store/postgres.js";
import type { Store } from "../src/store/types.js";

const postgres = await useService("postgres", "PostgreSQL inserts commit in id order");
const url = postgres.available ? postgres.url : "";
const schemas: string[] = [];
// Long enough for a waiting insert to show it would not wait, on a loaded machine.
const WAIT_MS = 400;

async function client(schema: string): Promise<pg.Client> {
  const connection = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await connection.connect();
  return connection;
}

/** A store on a fresh schema (migrated), dropped after the file. */
async function freshStore(): Promise<{ store: Store; schema: string }> {
  const schema = `order_${randomBytes(6).toString("hex")}`;
  schemas.push(schema);
  return { store: await openPostgresStore({ url, schema, maxConnections: 4 }), schema };
}

/** What a reader and a second writer see while a first insert is held uncommitted. */
async function whileAnInsertIsHeld(store: Store, schema: string, second: () => Promise<unknown>) {
  const held = await client(schema);
  try {
    await held.query("begin");
    const insert = "insert into pets (name, category_id) values ('held', 1) returning id";
    const heldId = Number((await held.query<{ id: string }>(insert)).rows[0]?.id);
    let secondDone = false;
    const pending = second().then(() => {
      secondDone = true;
    });
    await sleep(WAIT_MS);
    const doneWhileHeld = secondDone;
    const seenWhileHeld = (await store.listPets({ limit: 10, afterId: heldId - 1 })).map(
      (p) => p.id,
    );
    await held.query("commit");
    await pending;
    const seenAfter = (await store.listPets({ limit: 10, afterId: heldId - 1 })).map((p) => p.id);
    return { heldId, doneWhileHeld, seenWhileHeld, seenAfter };
  } finally {
    await held.end();
  }
}

describe.skipIf(!postgres.available)(
  "PostgreSQL: creates commit in id order",
  { timeout: 30_000 },
  () => {
    afterAll(async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    });

    it("a create waits for an uncommitted insert, then gets the next id: no reader sees it first", async () => {
      const { store, schema } = await freshStore();
      try {
        const seen = await whileAnInsertIsHeld(store, schema, () =>
          store.createPet({ name: "later", categoryId: 1 }),
        );
        expect(seen.doneWhileHeld).toBe(false);
        expect(seen.seenWhileHeld).toEqual([]);
        expect(seen.seenAfter).toEqual([seen.heldId, seen.heldId + 1]);
      } finally {
        await store.close();
      }
    });

    it("so does a multi-row insert from another connection (a batch draws consecutive ids after it)", async () => {
      const { store, schema } = await freshStore();
      const other = await client(schema);
      try {
        const seen = await whileAnInsertIsHeld(store, schema, () =>
          other.query(
            "insert into pets (name, category_id) values ('b1', 1), ('b2', 1), ('b3', 1)",
          ),
        );
        expect(seen.doneWhileHeld).toBe(false);
        expect(seen.seenWhileHeld).toEqual([]);
        expect(seen.seenAfter).toEqual([0, 1, 2, 3].map((k) => seen.heldId + k));
      } finally {
        await other.end();
        await store.close();
      }
    });

    it("planted fault: without the trigger the later create commits first and a reader skips the held id", async () => {
      const { store, schema } = await freshStore();
      const admin = await client(schema);
      try {
        await admin.query("drop trigger pets_commit_in_id_order on pets");
        const seen = await whileAnInsertIsHeld(store, schema, () =>
          store.createPet({ name: "later", categoryId: 1 }),
        );
        // What the first test rules out: a reader at this moment moves its cursor past heldId.
        expect(seen.doneWhileHeld).toBe(true);
        expect(seen.seenWhileHeld).toEqual([seen.heldId + 1]);
      } finally {
        await admin.end();
        await store.close();
      }
    });
  },
);
