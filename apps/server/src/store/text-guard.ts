/**
 * The rows of `pets` whose items the JSON text of a page would not write exactly (json-pages.ts
 * sqliteOddRowSql: a REAL, a TEXT or a BLOB in an integer column, a BLOB in a text column, an
 * integer beyond 2^53, a required property's NULL), recorded by the database itself as they are
 * written: triggers on insert, update and delete keep their ids in a table of their own. Triggers
 * are part of the schema, so they record what every writer does, the API and anything else that
 * opens the file (the SQLite shell, a migration, an import). While that table is empty the page
 * query checks nothing; otherwise it checks each page on aggregates, as it did before.
 *
 * The table and triggers are named after a hash of their SQL, which the served items decide: a
 * contract that changes which properties the text writes gets a new set, filled by one scan of
 * the table when it is created, and the sets of earlier contracts are dropped.
 */
import { createHash } from "node:crypto";
import type Database from "libsql";
import { sqlIdentifier } from "./pet-rows.js";

/** Every name the guard gives the schema starts with this. */
export const TEXT_GUARD_PREFIX = "pets_text_odd_";

/**
 * Creates (or finds) the guard of `odd`, the condition on a row's columns (named by its argument)
 * that the text would not write it exactly, on a `pets` table whose id column is `idColumn`.
 * Returns the SQL condition, true when no row of the table is odd, to put in the page query.
 */
export function installTextGuard(
  raw: Database.Database,
  idColumn: string,
  odd: (ref: (column: string) => string) => string,
): string {
  const id = sqlIdentifier(idColumn);
  const oddNew = odd((column) => `new.${column}`);
  // The table's column has no type: it takes an id of any kind, so no write is ever refused
  // for its id's sake (one in a table made outside the API may be a REAL or a TEXT).
  const statementsOf = (name: string) => {
    const table = sqlIdentifier(name);
    return [
      `create table ${table} (id unique)`,
      `create trigger ${sqlIdentifier(`${name}_insert`)} after insert on "pets" when ${oddNew} begin insert or ignore into ${table} (id) values (new.${id}); end`,
      `create trigger ${sqlIdentifier(`${name}_update`)} after update on "pets" begin delete from ${table} where id = old.${id}; insert or ignore into ${table} (id) select new.${id} where ${oddNew}; end`,
      `create trigger ${sqlIdentifier(`${name}_delete`)} after delete on "pets" begin delete from ${table} where id = old.${id}; end`,
    ];
  };
  const hash = createHash("sha256").update(statementsOf("").join(";\n")).digest("hex");
  const name = `${TEXT_GUARD_PREFIX}${hash.slice(0, 16)}`;
  const ours = new Set([name, `${name}_insert`, `${name}_update`, `${name}_delete`]);
  const existing = raw
    .prepare("select type, name from sqlite_schema where substr(name, 1, ?) = ?")
    .all(TEXT_GUARD_PREFIX.length, TEXT_GUARD_PREFIX) as { type: string; name: string }[];
  const complete = [...ours].every((n) => existing.some((e) => e.name === n));
  const stale = existing.filter((e) => !complete || !ours.has(e.name));
  if (complete && stale.length === 0) return guardCondition(name);
  raw.exec("begin immediate");
  try {
    // Triggers first: a trigger naming a dropped table would fail every write to pets.
    const triggers = stale.filter((e) => e.type === "trigger");
    for (const { name: other } of triggers) raw.exec(`drop trigger ${sqlIdentifier(other)}`);
    for (const { name: other } of stale.filter((e) => e.type === "table")) {
      raw.exec(`drop table ${sqlIdentifier(other)}`);
    }
    if (!complete) {
      for (const statement of statementsOf(name)) raw.exec(statement);
      const oddRow = odd((column) => `"pets".${column}`);
      raw.exec(
        `insert or ignore into ${sqlIdentifier(name)} (id) select ${id} from "pets" where ${oddRow}`,
      );
    }
    raw.exec("commit");
  } catch (err) {
    raw.exec("rollback");
    throw err;
  }
  return guardCondition(name);
}

function guardCondition(name: string): string {
  return `not exists (select 1 from ${sqlIdentifier(name)})`;
}
