import type { NewPet, Pet } from "@animal-store/api-types";
import { StoreUnavailableError } from "@animal-store/openapi-engine";
import { describe, expect, it } from "vitest";
import { BatchedCreates, type InsertMany, pairRows } from "./batched-creates.js";

/** A fake database: ids in statement order, every statement recorded; `refuse` fails a statement. */
function fakeDatabase(refuse: (pets: NewPet[]) => unknown = () => undefined) {
  const statements: NewPet[][] = [];
  let nextId = 1;
  const insertMany: InsertMany = async (pets) => {
    statements.push(pets);
    const error = refuse(pets);
    if (error !== undefined) throw error;
    return pets.map((pet) => ({ id: nextId++, ...pet }) as Pet);
  };
  return { statements, insertMany };
}

const pet = (name: string): NewPet => ({ name, categoryId: 1 });

describe("BatchedCreates", () => {
  it("writes creates of one turn as one statement and answers each with its own row", async () => {
    const db = fakeDatabase();
    const creates = new BatchedCreates(db.insertMany);
    const stored = await Promise.all(["a", "b", "c"].map((name) => creates.add(pet(name))));
    expect(db.statements).toHaveLength(1);
    expect(stored.map((p) => [p.id, p.name])).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "c"],
    ]);
  });

  it("batches what arrives while a statement is in flight into the next one", async () => {
    const db = fakeDatabase();
    const creates = new BatchedCreates(db.insertMany);
    const first = creates.add(pet("a"));
    await new Promise((resolve) => setImmediate(resolve));
    const later = [creates.add(pet("b")), creates.add(pet("c"))];
    await Promise.all([first, ...later]);
    expect(db.statements.map((s) => s.length)).toEqual([1, 2]);
  });

  it("retries each create of a refused batch on its own: only the refused one fails", async () => {
    const db = fakeDatabase((pets) =>
      pets.some((p) => p.name === "bad") ? new Error("refused") : undefined,
    );
    const creates = new BatchedCreates(db.insertMany);
    const results = await Promise.allSettled(["a", "bad", "c"].map((n) => creates.add(pet(n))));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("fails the whole batch without a retry when the database is unreachable", async () => {
    const db = fakeDatabase(() => new StoreUnavailableError("down"));
    const creates = new BatchedCreates(db.insertMany);
    const results = await Promise.allSettled(["a", "b"].map((n) => creates.add(pet(n))));
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(db.statements).toHaveLength(1);
  });

  it("settles everything before idle() resolves", async () => {
    const creates = new BatchedCreates(fakeDatabase().insertMany);
    let settled = 0;
    for (const name of ["a", "b"]) void creates.add(pet(name)).then(() => settled++);
    await creates.idle();
    await Promise.resolve();
    expect(settled).toBe(2);
  });
});

describe("pairRows", () => {
  it("pairs by id order, and by content when the rows come back in another order", () => {
    const pets = [pet("a"), { name: "b", categoryId: 2, status: "sold" } as NewPet];
    const rows = [
      { id: 8, name: "a", categoryId: 1 },
      { id: 7, name: "b", categoryId: 2, status: "sold" },
    ] as Pet[];
    expect(pairRows(pets, rows).map((p) => p.id)).toEqual([8, 7]);
  });

  it("refuses rows that are not the batch's creates", () => {
    expect(() => pairRows([pet("a")], [{ id: 1, name: "x", categoryId: 1 } as Pet])).toThrow();
    expect(() => pairRows([pet("a")], [])).toThrow();
  });
});
