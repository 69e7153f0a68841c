/**
 * A page's cost does not grow with its depth: each engine answers the store's page query
 * (`petsPageQuery`, the one listPets runs) with an index seek in id order, the (status, id) index
 * with a status filter and the primary key without, and never with a sort or a scan of the table.
 * The time it takes is measured by `pnpm bench` (page 1 against page 50, 1,000 against 1,000,000
 * pets); this pins the plan that makes it so, on tables large enough for the planner to care.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { PetStatus } from "@animal-store/api-types";
import { openPostgresDatabase, openSqliteDatabase } from "@animal-store/openapi-engine/storage";
import { useService } from "@animal-store/test-support";
import { CompiledQuery, type Kysely, sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { jsonPageSql, type PageColumn, postgresJsonPageSql } from "../src/store/json-pages.js";
import { petsPageQuery } from "../src/store/kysely-store.js";
import { petStoreMigrations } from "../src/store/migrations.js";
import { batchedPageSql } from "../src/store/postgres.js";
import type { Database } from "../src/store/schema.js";
import type { PetQuery } from "../src/store/types.js";
import { paging } from "./support/paging.js";
import { tempDir } from "./support/test-app.js";

const postgres = await useService("postgres", "PostgreSQL page query plans");
const ROWS = 50_000;
// The filtered status is rare (1 pet in 100), as a status one pages through would be: with evenly
// spread statuses PostgreSQL may as well walk the primary key and filter, which costs the same on
// every page too (about limit / share rows), so that case would pin nothing.
const status = paging.statuses[0] as PetStatus;
const other = paging.statuses[1] as PetStatus;
/** A page deep in the list, filtered and not. */
const deepPages: [string, PetQuery][] = [
  ["status filter", { limit: paging.limit.default + 1, status, afterId: ROWS / 2 }],
  ["no filter", { limit: paging.limit.default + 1, afterId: ROWS / 2 }],
];

describe("SQLite plans the page query as an index seek", () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  it.each(deepPages)("%s", async (_label, query) => {
    const { db, raw } = await openSqliteDatabase<Database>(
      join(temp.dir, `plans-${query.status ?? "all"}.db`),
      petStoreMigrations,
    );
    try {
      raw.exec(`
        with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ROWS})
        insert into pets (name, category_id, status)
        select 'p' || i, 1, case when i % 100 = 0 then '${status}'
          when i % 2 = 0 then null else '${other}' end from n;
        analyze;`);
      const compiled = petsPageQuery(db, query).compile();
      const plan = (
        raw.prepare(`explain query plan ${compiled.sql}`).all(...compiled.parameters) as {
          detail: string;
        }[]
      ).map((row) => row.detail);
      const seek = query.status
        ? /^SEARCH pets USING INDEX pets_status_id \(status=\? AND id>\?\)$/
        : /^SEARCH pets USING INTEGER PRIMARY KEY \(rowid>\?\)$/;
      expect(plan, plan.join("\n")).toEqual([expect.stringMatching(seek)]);
      // The same query as the store runs it, one JSON text around it (json-pages.ts): the same
      // seek inside, and no sort or scan added around it.
      const wrapped = jsonPageSql(
        compiled.sql,
        raw.prepare(compiled.sql).columns() as PageColumn[],
      );
      const wrappedPlan = (
        raw.prepare(`explain query plan ${wrapped}`).all(...compiled.parameters) as {
          detail: string;
        }[]
      ).map((row) => row.detail);
      expect(wrappedPlan, wrappedPlan.join("\n")).toContainEqual(expect.stringMatching(seek));
      expect(
        wrappedPlan.filter((line) => /SCAN|B-TREE/.test(line) && !/^SCAN \(subquery/.test(line)),
        wrappedPlan.join("\n"),
      ).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});

/** A node of PostgreSQL's JSON plan. */
interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: PlanNode[];
}

/** The plan's nodes of `sql` with `parameters`, depth first, and their JSON (for messages). */
async function explainNodes(
  db: Kysely<Database>,
  sqlText: string,
  parameters: readonly unknown[],
): Promise<[PlanNode[], string]> {
  const { rows } = await db.executeQuery<{ "QUERY PLAN": unknown }>(
    CompiledQuery.raw(`explain (format json) ${sqlText}`, [...parameters]),
  );
  const nodes = planNodes(((rows[0]?.["QUERY PLAN"] ?? []) as { Plan: PlanNode }[])[0]?.Plan);
  return [nodes, JSON.stringify(nodes)];
}

/** The plan's nodes, depth first. */
function planNodes(node: PlanNode | undefined): PlanNode[] {
  if (!node) return [];
  const { Plans, ...own } = node;
  return [own, ...(Plans ?? []).flatMap(planNodes)];
}

describe.skipIf(!postgres.available)("PostgreSQL plans the page query as an index seek", () => {
  const url = postgres.available ? postgres.url : "";
  const schema = `plans_${randomBytes(6).toString("hex")}`;
  const { db, prepare } = openPostgresDatabase<Database>(
    { url, schema, lockName: "list-query-plans" },
    petStoreMigrations,
  );
  afterAll(async () => {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
    await db.destroy();
  });

  it.each(deepPages)("%s", async (_label, query) => {
    await prepare();
    if ((await petsPageQuery(db, { limit: 1 }).execute()).length === 0) {
      await sql`
        insert into pets (name, category_id, status)
        select 'p' || i, 1, case when i % 100 = 0 then ${status}
          when i % 2 = 0 then null else ${other} end
        from generate_series(1, ${ROWS}) as i`.execute(db);
      await sql`analyze pets`.execute(db);
    }
    const compiled = petsPageQuery(db, query).compile();
    const [nodes, where] = await explainNodes(db, compiled.sql, compiled.parameters);
    expect(
      nodes.map((node) => node["Node Type"]),
      where,
    ).toEqual(["Limit", "Index Scan"]);
    expect(nodes[1]?.["Index Name"], where).toBe(query.status ? "pets_status_id" : "pets_pkey");
    expect(nodes[1]?.["Index Cond"], where).toMatch(/\(?id > /);
    // The same query as the store runs it, one JSON value around it (json-pages.ts): the same
    // index scan inside, and no sort or sequential scan added around it.
    const { rows: columns } = await sql<PageColumn>`select column_name as name, data_type as type
      from information_schema.columns where table_schema = ${schema} and table_name = 'pets'
      order by ordinal_position`.execute(db);
    const single = postgresJsonPageSql(compiled.sql, columns) as string;
    const [wrappedNodes, wrappedWhere] = await explainNodes(db, single, compiled.parameters);
    expect(
      wrappedNodes.filter((node) => ["Sort", "Seq Scan"].includes(node["Node Type"])),
      wrappedWhere,
    ).toEqual([]);
    expect(
      wrappedNodes.find((node) => node["Node Type"] === "Index Scan")?.["Index Name"],
      wrappedWhere,
    ).toBe(nodes[1]?.["Index Name"]);
    if (query.status !== undefined) return; // filtered pages are never batched (postgres.ts)
    // Several pages of the shape in one statement (postgres.ts): the same seek, once per page.
    const [batchedNodes, batchedWhere] = await explainNodes(
      db,
      batchedPageSql(
        single,
        compiled.parameters.map(() => "bigint"),
      ),
      compiled.parameters.map((value) => [value, value]),
    );
    expect(
      batchedNodes.filter((node) => ["Sort", "Seq Scan"].includes(node["Node Type"])),
      batchedWhere,
    ).toEqual([]);
    const seek = batchedNodes.find((node) => node["Node Type"] === "Index Scan");
    expect(seek?.["Index Name"], batchedWhere).toBe("pets_pkey");
    expect(seek?.["Index Cond"] ?? "", batchedWhere).toMatch(
      query.afterId === undefined ? /^$/ : /\(?id > /,
    );
  });
});
