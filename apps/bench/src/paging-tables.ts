/**
 * The tables of the paging bench and the way to a page in them: the paged list as the spec
 * describes it (path, page size, filter), SQLite files seeded with one SQL statement (a million
 * rows in about two seconds, where the API would take minutes), and the path of page n found by
 * following next links as a client does.
 */
import {
  basePathOf,
  deref,
  type JsonObject,
  loadBundledSpec,
  operationPagination,
  specOperations,
} from "@animal-store/openapi";
import { openSqliteStore } from "@animal-store/server";
import Database from "libsql";
import type { RunningVariant } from "./variant-process.js";

const { spec } = loadBundledSpec();

/** The paged list as the spec describes it: its path, page size parameter and largest page, filter. */
export function pagedList() {
  const op = specOperations(spec).find((o) => operationPagination(spec, o));
  const paging = op && operationPagination(spec, op);
  if (!op || !paging) throw new Error("the contract has no operation that pages");
  const schemaOf = (name: string | undefined) =>
    deref<JsonObject>(spec, op.parameters.find((p) => p.name === name)?.schema ?? {});
  const maximum = schemaOf(paging.pageSizeParameter).maximum;
  // The filter: the one query parameter besides the cursor and the page size (the status).
  const filter = op.parameters.find(
    (p) =>
      p.in === "query" &&
      ![paging.cursorParameter, paging.pageSizeParameter].includes(String(p.name)),
  );
  const values = schemaOf(String(filter?.name)).enum;
  if (typeof maximum !== "number" || !Array.isArray(values)) {
    throw new Error("the paged list has no page size maximum or no enumerated filter");
  }
  return {
    path: `${basePathOf(spec)}${op.path}`,
    pageSize: `${paging.pageSizeParameter}=${maximum}`,
    maximum,
    filter: `${String(filter?.name)}=${String(values[0])}`,
    values: values.map(String),
  };
}

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
