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
 *   outside the API): the query also says whether any row of the page has one, and that page is
 *   read again row by row;
 * - JSON cannot hold a BLOB: SQLite refuses the query, and the page is read row by row.
 * The page's id order comes from the inner query (Kysely's, the plan tests pin it) and SQLite
 * aggregates a subquery's rows in the order it yields them; the order is checked anyway, as it is
 * cheap, and sorted if ever not.
 */

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

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The JSON page query around `inner` (whose result has `columns`), or undefined when a column
 * could hold values SQLite's JSON does not write exactly. It answers one row: the page's JSON
 * text, and 1 when some row holds a REAL in an INTEGER column (then the text is not to be used).
 */
export function jsonPageSql(inner: string, columns: readonly PageColumn[]): string | undefined {
  const kinds = columns.map((column) => affinity(column.type));
  if (kinds.includes("other")) return undefined;
  const values = columns.map((column) => quoted(column.name)).join(", ");
  const reals = columns
    .filter((_, i) => kinds[i] === "integer")
    .map((column) => `typeof(${quoted(column.name)}) = 'real'`);
  const anyReal = reals.length === 0 ? "0" : `coalesce(max(${reals.join(" or ")}), 0)`;
  return `select json_group_array(json_array(${values})), ${anyReal} from (${inner})`;
}

/**
 * The rows of a JSON page's text, in ascending order of the column at `idIndex`; undefined when
 * the query said a row holds a REAL in an INTEGER column.
 */
export function pageRows(answer: unknown[], idIndex: number): unknown[][] | undefined {
  if (answer[1] !== 0) return undefined;
  const rows = JSON.parse(answer[0] as string) as unknown[][];
  for (let i = 1; i < rows.length; i++) {
    if ((rows[i - 1]?.[idIndex] as number) >= (rows[i]?.[idIndex] as number)) {
      return rows.sort((a, b) => (a[idIndex] as number) - (b[idIndex] as number));
    }
  }
  return rows;
}
