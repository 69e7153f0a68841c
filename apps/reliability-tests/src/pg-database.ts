/**
 * A throwaway PostgreSQL database per test file, so suites sharing the machine's server never
 * collide; dropped (with its connections) afterwards.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

/** A database that exists until `drop()`. */
export interface TestDatabase {
  /** Connection URL of the new database (same server and credentials as the admin URL). */
  readonly url: string;
  readonly name: string;
  /** Runs one query on the new database (opens and closes its own connection). */
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates `rel_<tag>_<random>` on the server of `adminUrl`. */
export async function createTestDatabase(adminUrl: string, tag: string): Promise<TestDatabase> {
  const name = `rel_${tag}_${randomBytes(4).toString("hex")}`;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad database tag ${tag}`);
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    query: (sql, params) =>
      withClient(url.toString(), async (c) => (await c.query(sql, params)).rows),
    drop: () =>
      withClient(adminUrl, async (c) => {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }),
  };
}
