/**
 * The "done when": 250 pets created while other clients page through the list are all
 * found exactly once by following `next`, with no filter and with each status filter, on SQLite
 * (one instance) and on PostgreSQL (two instances sharing one schema: creates and pages go to
 * either, so a cursor made by one is followed on the other).
 *
 * Each round, every pager asks for its next page while ten creates are in flight. Pagers read
 * fewer pets per round than the round creates, from a seeded head start, so none reaches the end
 * of the list before the creates are done (checked): each must then find every pet of its filter,
 * seeded or created, exactly once and in id order.
 */
import { randomBytes } from "node:crypto";
import type { Pet, PetStatus } from "@animal-store/api-types";
import { useService } from "@animal-store/test-support";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "../src/store/postgres.js";
import { contract } from "./support/contract.js";
import { paging, readPage, type SeenPage } from "./support/paging.js";
import { postJson, startTestApp, type TestApp } from "./support/test-app.js";

const postgres = await useService("postgres", "paging while creating, on PostgreSQL");
const CREATED = 250;
const PER_ROUND = 10;
const SEEDED_PER_FILTER = 20;

/** Statuses in turn, and every (n+1)th pet without one. */
const statusOf = (i: number): PetStatus | undefined =>
  paging.statuses[i % (paging.statuses.length + 1)] as PetStatus | undefined;

/** One client paging with one filter. */
interface Pager {
  status: PetStatus | undefined;
  limit: number;
  next: string | undefined;
  pages: SeenPage[];
}

async function pageWhileCreating(instances: TestApp[]): Promise<void> {
  const [first] = instances;
  if (!first) throw new Error("no instance");
  const fetchOn = (url: string, n: number) => {
    const app = instances[n % instances.length] as TestApp;
    const target = new URL(url);
    return fetch(`${app.url}${target.pathname}${target.search}`, {
      headers: { authorization: `Bearer ${app.key}` },
    });
  };
  const all: Pet[] = [];
  const seeds = SEEDED_PER_FILTER * (paging.statuses.length + 1);
  for (let i = 0; i < seeds; i++) {
    const status = statusOf(i);
    all.push(
      await first.store.createPet({
        name: `seed${i}`,
        categoryId: 1,
        ...(status ? { status } : {}),
      }),
    );
  }
  const base = `${first.url}${contract.basePath}${paging.path}`;
  const pagers: Pager[] = [undefined, ...(paging.statuses as PetStatus[])].map((status) => {
    // Unfiltered pages read 3 of the round's 10 creates, filtered ones 1 of about 2.5.
    const limit = status === undefined ? 3 : 1;
    const query = new URLSearchParams({ limit: String(limit), ...(status ? { status } : {}) });
    return { status, limit, next: `${base}?${query}`, pages: [] };
  });
  let created = 0;
  for (let round = 0; created < CREATED; round++) {
    const creates = Array.from({ length: Math.min(PER_ROUND, CREATED - created) }, (_, k) => {
      const i = created + k;
      const status = statusOf(i);
      const app = instances[i % instances.length] as TestApp;
      return postJson(app, { name: `new${i}`, categoryId: 2, ...(status ? { status } : {}) }).then(
        async (response) => {
          expect(response.status).toBe(201);
          all.push((await response.json()) as Pet);
        },
      );
    });
    created += creates.length;
    const reads = pagers.map(async (pager) => {
      expect(
        pager.next,
        "a pager reached the end while pets were still being created",
      ).toBeDefined();
      const page = await readPage((url) => fetchOn(url, round), pager.next as string);
      pager.pages.push(page);
      pager.next = page.next;
    });
    await Promise.all([...creates, ...reads]);
  }
  for (const pager of pagers) {
    for (let n = 0; pager.next !== undefined; n++) {
      const page = await readPage((url) => fetchOn(url, n), pager.next);
      pager.pages.push(page);
      pager.next = page.next;
    }
  }
  expect(all.length).toBe(seeds + CREATED);
  for (const pager of pagers) {
    const found = pager.pages.flatMap((page) => page.pets.map((pet) => pet.id));
    const expected = all
      .filter((pet) => pager.status === undefined || pet.status === pager.status)
      .map((pet) => pet.id)
      .sort((a, b) => a - b);
    const label = `status=${pager.status ?? "(none)"}`;
    // Strictly ascending ids: nothing twice, nothing out of order; equal sets: nothing missing.
    expect(found, label).toEqual(expected);
    expect(pager.pages.length, label).toBeGreaterThan(CREATED / PER_ROUND);
  }
}

describe("250 pets created while clients page: each found exactly once", {
  timeout: 120_000,
}, () => {
  it("SQLite, one instance", async () => {
    const app = await startTestApp();
    try {
      await pageWhileCreating([app]);
    } finally {
      await app.close();
    }
  });

  describe.skipIf(!postgres.available)("PostgreSQL", () => {
    const url = postgres.available ? postgres.url : "";
    const schema = `paging_${randomBytes(6).toString("hex")}`;
    afterAll(async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    });

    it("two instances on one schema", async () => {
      const instances: TestApp[] = [];
      try {
        for (let i = 0; i < 2; i++) {
          instances.push(await startTestApp({ store: await openPostgresStore({ url, schema }) }));
        }
        await pageWhileCreating(instances);
      } finally {
        await Promise.all(instances.map((app) => app.close()));
      }
    });
  });
});
