/**
 * SqliteStore.replacePets, what the stateful mock seeds and resets with: the pets as given, ids
 * kept, and ids assigned afterwards continuing above the highest, as after a fresh start.
 */
import type { Pet } from "@animal-store/api-types";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite.js";

const seed: Pet[] = [
  { id: 2, name: "Tom", categoryId: 2, status: "pending" },
  { id: 7, name: "Nemo", categoryId: 3 },
];

let store: SqliteStore | undefined;
afterEach(async () => {
  await store?.close();
});

describe("SqliteStore.replacePets", () => {
  it("stores the pets with their ids; the next create gets the id above the highest", async () => {
    store = await openSqliteStore(":memory:");
    store.replacePets(seed);
    expect(await store.listPets({ limit: 10 })).toEqual(seed);
    expect(await store.getPet(7)).toEqual(seed[1]);
    expect(await store.createPet({ name: "Rex", categoryId: 1 })).toEqual({
      id: 8,
      name: "Rex",
      categoryId: 1,
    });
  });

  it("replaces what was there, creates waiting for their commit included, and restarts the ids", async () => {
    store = await openSqliteStore(":memory:");
    for (let i = 0; i < 20; i++) await store.createPet({ name: `Old ${i}`, categoryId: 1 });
    const waiting = store.createPet({ name: "Late", categoryId: 1 });
    store.replacePets(seed);
    await waiting;
    expect(await store.listPets({ limit: 100 })).toEqual(seed);
    expect((await store.createPet({ name: "Rex", categoryId: 1 })).id).toBe(8);
  });

  it("stores nothing of a list it cannot store whole", async () => {
    store = await openSqliteStore(":memory:");
    store.replacePets(seed);
    const twice = [...seed, { id: 2, name: "Again", categoryId: 1 }];
    expect(() => store?.replacePets(twice)).toThrow();
    expect(await store.listPets({ limit: 10 })).toEqual(seed);
  });
});
