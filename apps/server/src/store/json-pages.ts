/**
 * A page of pets read from SQLite as one JSON text instead of row by row. libsql's driver pays a
 * call into native code and a conversion per row; with `json_group_array(json_array(...))` SQLite
 * builds the whole page, `[[id, name, ...], ...]`, and the driver hands back one string, which
 * `JSON.parse` turns into the same arrays a raw statement would have given row by row (the same
 * mapper then builds the pets). Only where that is exact:
 * - SQLite's JSON writes a REAL with 15 significant digits (0.1 + 0.2 would come back as 0.3), so
 *   a table with a column whose declared type has REAL, NUMERIC or BLOB affinity is read row by
 *   row, always;
 * - an INTEGER-affinity column may still hold a REAL (a value beyond 64 bits, or one written
 *   outside the API), and any column a BLOB (written outside the API): the query also counts the
 *   rows of the page holding one, and such a page is read again row by row. A BLOB must be caught
 *   before SQLite's JSON sees it: most make the query fail ("JSON cannot hold BLOB values"), but
 *   one that happens to be valid JSONB is written as the JSON it encodes (x'00' as null, x'01' as
 *   true), with no error.
 * PostgreSQL (`postgresJsonPageSql`): the same with `json_agg(json_build_array(...))`, for the same
 * reason (pg parses every row of a result in JavaScript, one type parser per value). There a
 * float8 column is read row by row: its NaN and Infinity are JSON strings, where pg gives numbers.
 * The page's id order comes from the inner query (Kysely's, the plan tests pin it) and SQLite
 * aggregates a subquery's rows in the order it yields them; the order is checked anyway, as it is
 * cheap, and sorted if ever not.
 */

import { sqlIdentifier } from "./pet-rows.js";

/** A column of the page query, as the driver describes it (`Statement.columns()`). */
export interface PageColumn {
  name: string;
  /** The declared type, or null for an expression. */
  type: string | null;
}

/** SQLite's affinity of a declared type (https://sqlite.org/datatype3.html, 3.1). */
function affinity(type: string | null): "integer" | "text" | "other" {
  const upper = (type ?? "").toUpperCase();
  if (upper.includes("INT")) return "integer";
  if (upper.includes("CHAR") || upper.includes("CLOB") || upper.includes("TEXT")) return "text";
  return "other";
}

/**
 * The JSON page query around `inner` (whose result has `columns`), or undefined when a column
 * could hold values SQLite's JSON does not write exactly. It answers one row: the page's JSON
 * text, and how many rows hold a REAL in an INTEGER column or a BLOB anywhere (when not 0, the
 * text is not to be used). `rowidAlias` names the table's INTEGER PRIMARY KEY, if it has one:
 * SQLite stores only integers there, so it is left out of the check (bench README: what it
 * bought). The count is `count(*) filter`, which SQLite evaluates faster than `max(...)` of the
 * same test.
 */
export function jsonPageSql(
  inner: string,
  columns: readonly PageColumn[],
  rowidAlias?: string,
): string | undefined {
  const kinds = columns.map((column) => affinity(column.type));
  if (kinds.includes("other")) return undefined;
  const values = columns.map((column) => sqlIdentifier(column.name)).join(", ");
  const checks: string[] = [];
  const textual: string[] = [];
  columns.forEach((column, i) => {
    if (column.name === rowidAlias) return;
    const type = `typeof(${sqlIdentifier(column.name)})`;
    if (kinds[i] === "integer") checks.push(`${type} in ('real', 'blob')`);
    else textual.push(type);
  });
  if (textual.length > 0) checks.push(`'blob' in (${textual.join(", ")})`);
  const inexact = checks.length === 0 ? "0" : `count(*) filter (where ${checks.join(" or ")})`;
  return `select json_group_array(json_array(${values})), ${inexact} from (${inner})`;
}

/** What `PRAGMA table_info` says of a column. */
export interface TableColumnInfo {
  name: string;
  type: string;
  /** 1-based position in the primary key; 0 when not in it. */
  pk: number;
}

/**
 * The table's rowid alias, or undefined: its only primary-key column when declared exactly
 * `INTEGER` (https://sqlite.org/lang_createtable.html#rowid), in a table with a rowid. Where the
 * table's SQL could make it something else (WITHOUT ROWID, or the `INTEGER PRIMARY KEY DESC`
 * quirk, which is not an alias), none is named: the check then covers that column too.
 */
export function rowidAliasOf(
  columns: readonly TableColumnInfo[],
  createSql: string,
): string | undefined {
  const keys = columns.filter((column) => column.pk > 0);
  const [key] = keys;
  if (keys.length !== 1 || key === undefined || key.type.toUpperCase() !== "INTEGER") {
    return undefined;
  }
  if (/without\s+rowid/i.test(createSql) || /primary\s+key\s+desc/i.test(createSql)) {
    return undefined;
  }
  return key.name;
}

/**
 * The rows of a JSON page's text, in ascending order of the column at `idIndex`; undefined when
 * the query counted rows its JSON would not carry exactly.
 */
export function pageRows(answer: unknown[], idIndex: number): unknown[][] | undefined {
  if (answer[1] !== 0) return undefined;
  return inIdOrder(JSON.parse(answer[0] as string) as unknown[][], idIndex);
}

/** `rows`, sorted by the column at `idIndex` if they were not in its ascending order already. */
export function inIdOrder(rows: unknown[][], idIndex: number): unknown[][] {
  for (let i = 1; i < rows.length; i++) {
    if ((rows[i - 1]?.[idIndex] as number) >= (rows[i]?.[idIndex] as number)) {
      return rows.sort((a, b) => (a[idIndex] as number) - (b[idIndex] as number));
    }
  }
  return rows;
}

/** PostgreSQL column types (information_schema's `data_type`) whose JSON is what pg would parse. */
const EXACT_IN_POSTGRES_JSON = new Set([
  "bigint",
  "integer",
  "smallint",
  "text",
  "character varying",
]);

/**
 * The JSON page query around `inner` on PostgreSQL: one row, one `json` value (pg parses it), or
 * undefined when a column's type is not one whose JSON pg would parse to the same value.
 */
export function postgresJsonPageSql(
  inner: string,
  columns: readonly PageColumn[],
): string | undefined {
  if (!columns.every((column) => EXACT_IN_POSTGRES_JSON.has(column.type ?? ""))) return undefined;
  const values = columns.map((column) => sqlIdentifier(column.name)).join(", ");
  return `select coalesce(json_agg(json_build_array(${values})), '[]'::json) as page from (${inner}) as page_rows`;
}
