/**
 * The tables of the paging bench: SQLite files seeded with one SQL statement (a million rows in
 * seconds, where the API would take minutes), and the path of page n found by following next
 * links as a client does.
 */
import { openSqliteStore } from "@animal-store/server";
import Database from "libsql";
import type { RunningVariant } from "./variant-process.js";

/** Creates and migrates a SQLite file, then inserts `count` pets in one statement. */
export async function seededDatabase(path: string, count: number, values: string[]): Promise<void> {
  const store = await openSqliteStore(path);
  await store.close();
  const db = new Database(path);
  try {
    // Statuses in turn, every (n+1)th pet without one, as the API would store them.
    const cases = values.map((_, i) => `WHEN ${i + 1} THEN ?`).join(" ");
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
       INSERT INTO pets (name, category_id, status)
       SELECT 'Pet ' || i, 1 + i % 7, CASE i % ${values.length + 1} ${cases} ELSE NULL END FROM n`,
    ).run(...values);
  } finally {
    db.close();
  }
}

/** The path of page `n` (1 = first) of `query`, found by following next links as a client does. */
export async function pagePath(
  variant: RunningVariant,
  list: string,
  query: string,
  n: number,
): Promise<string> {
  let path = `${list}?${query}`;
  for (let page = 1; page < n; page++) {
    const res = await fetch(`${variant.url}${path}`, {
      headers: { authorization: `Bearer ${variant.key}` },
    });
    await res.arrayBuffer();
    const target = /^<([^>]*)>; rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
    if (res.status !== 200 || target === undefined) {
      throw new Error(`page ${page} of ${query} answered ${res.status} without a next link`);
    }
    const next = new URL(target, `${variant.url}${path}`);
    path = `${next.pathname}${next.search}`;
  }
  return path;
}
