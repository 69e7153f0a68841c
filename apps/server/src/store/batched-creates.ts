/**
 * Group commit for a store whose writes are round trips (PostgreSQL): creates that arrive while
 * the previous batch is being written, or in the same turn of the event loop, go to the database
 * together as one multi-row INSERT ... RETURNING (one statement, so one transaction and one
 * commit), and each caller's promise settles only after that commit. One batch is in flight at a
 * time: PostgreSQL makes inserts into `pets` take turns anyway (migration 0002's advisory lock,
 * which keeps ids committing in order for keyset paging), so a second statement would only wait
 * for the lock, while a batch costs the lock, the round trip and the commit once for all of them.
 */
import type { NewPet, Pet } from "@animal-store/api-types";
import { StoreUnavailableError } from "@animal-store/openapi-engine";

interface Pending {
  pet: NewPet;
  resolve: (pet: Pet) => void;
  reject: (err: unknown) => void;
}

/** Inserts `pets` in one statement and returns the stored rows (any order). */
export type InsertMany = (pets: NewPet[]) => Promise<Pet[]>;

/** The fields a caller sent, in a fixed order: a stored pet matches the create it came from. */
function contentKey(pet: NewPet | Pet): string {
  const fields: [string, unknown][] = [];
  for (const [name, value] of Object.entries(pet)) {
    if (name !== "id" && value !== undefined && value !== null) fields.push([name, value]);
  }
  fields.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(fields);
}

/**
 * Pairs each create with its stored row. The rows' ids are drawn in the statement's row order,
 * so sorted by id they pair up with the batch in order; each pair is checked (the caller must get
 * back exactly what it sent) and, should PostgreSQL ever return them otherwise, rows are matched
 * by content instead (identical creates are interchangeable).
 */
export function pairRows(pets: readonly NewPet[], rows: readonly Pet[]): Pet[] {
  if (rows.length !== pets.length) {
    throw new Error(`a batch of ${pets.length} creates returned ${rows.length} rows`);
  }
  const sorted = [...rows].sort((a, b) => a.id - b.id);
  const keys = pets.map(contentKey);
  if (sorted.every((row, i) => contentKey(row) === keys[i])) return sorted;
  const byContent = new Map<string, Pet[]>();
  for (const row of sorted) {
    const key = contentKey(row);
    byContent.set(key, [...(byContent.get(key) ?? []), row]);
  }
  return keys.map((key) => {
    const row = byContent.get(key)?.shift();
    if (row === undefined) throw new Error("a stored row matches none of the batch's creates");
    return row;
  });
}

/** Batches creates into `insertMany` calls, one in flight at a time, up to `maxBatch` each. */
export class BatchedCreates {
  private pending: Pending[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly insertMany: InsertMany,
    private readonly maxBatch = 500,
  ) {}

  add(pet: NewPet): Promise<Pet> {
    return new Promise((resolve, reject) => {
      this.pending.push({ pet, resolve, reject });
      // setImmediate runs after this turn's I/O callbacks: requests read together go together.
      if (this.running === null && this.pending.length === 1) {
        this.running = new Promise((done) => setImmediate(() => this.drain().finally(done)));
      }
    });
  }

  /** Resolves once every create added so far is settled (for a graceful close). */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, this.maxBatch);
        await this.commit(batch);
      }
    } finally {
      this.running = null;
    }
  }

  private async commit(batch: Pending[]): Promise<void> {
    const pets = batch.map(({ pet }) => pet);
    let rows: Pet[];
    try {
      rows = await this.insertMany(pets);
    } catch (err) {
      if (batch.length === 1 || err instanceof StoreUnavailableError) {
        for (const { reject } of batch) reject(err);
        return;
      }
      // The statement failed, so nothing of the batch was stored. Retry each on its own, so a
      // create the database refuses fails alone and the others are still stored.
      for (const item of batch) await this.commit([item]);
      return;
    }
    let stored: Pet[];
    try {
      stored = pairRows(pets, rows);
    } catch (err) {
      // Stored, but not answerable as the callers' own pets: an error, never a retry (a copy).
      for (const { reject } of batch) reject(err);
      return;
    }
    for (const [i, { resolve }] of batch.entries()) resolve(stored[i] as Pet);
  }
}
