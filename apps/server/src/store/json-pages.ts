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

import {
  deref,
  documentedResponses,
  isJsonObject,
  type JsonObject,
  type OpenApiDocument,
  responseForStatus,
  specOperations,
} from "@animal-store/openapi";
import { columnOf, sqlIdentifier } from "./pet-rows.js";

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
 * SQLite stores only integers there, so it is left out of the check, which would test every
 * row's id for nothing. The count is `count(*) filter`, which SQLite evaluates faster than
 * `max(...)` of the same test.
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
  /** 1 when declared NOT NULL. */
  notnull: number;
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

/**
 * A property of the items a list answers, as a page's JSON text is written in SQL (below): its
 * name, its column (pet-rows.ts's naming rule), its JSON type and whether the schema requires it.
 */
export interface TextProperty {
  property: string;
  column: string;
  type: "integer" | "string";
  required: boolean;
}

/** Keywords of an item schema, or of one of its properties, that change nothing written. */
const SAID_ONLY = new Set(["description", "title", "examples", "example", "deprecated"]);
const ITEM_KEYWORDS = new Set([
  ...SAID_ONLY,
  "type",
  "required",
  "properties",
  "additionalProperties",
]);
const PROPERTY_KEYWORDS: Record<TextProperty["type"], Set<string>> = {
  integer: new Set([
    ...SAID_ONLY,
    "type",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
  ]),
  string: new Set([...SAID_ONLY, "type", "minLength", "maxLength", "pattern", "enum"]),
};
const INTEGER_FORMATS = new Set([undefined, "int32", "int64"]);
/** Property names a JSON text can be searched for without escaping (`replace` below). */
const PLAIN_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function only(schema: JsonObject, allowed: Set<string>): boolean {
  return Object.keys(schema).every((key) => allowed.has(key) || key.startsWith("x-"));
}

/**
 * The items `operationId` answers with 200 (a JSON array of objects), as the JSON text of a page
 * written in SQL writes them; undefined unless that text is exactly what the serializer compiled
 * from the same schema (fast-json-stringify, engine responses/serializers.ts) writes for the pets
 * read as objects: an object of only the declared properties, in the schema's order, each an
 * integer or a string with no default, format or combinator that would make the serializer write
 * anything but the value. Anything else (a nested object, a number, a default, `anyOf`, extra
 * properties allowed) leaves the list to the objects' path.
 */
export function textPageItems(
  spec: OpenApiDocument,
  operationId: string,
): TextProperty[] | undefined {
  const operation = specOperations(spec).find((op) => op.operationId === operationId);
  if (operation === undefined) return undefined;
  // The response the engine's serializer of a 200 is compiled from (`2XX` or `default` too).
  const ok = responseForStatus(documentedResponses(spec, operation), 200);
  const schema = ok?.content["application/json"]?.schema;
  const page = deref<JsonObject | undefined>(spec, schema);
  if (page?.type !== "array") return undefined;
  const item = deref<JsonObject | undefined>(spec, page.items);
  if (item === undefined || item.type !== "object" || !only(item, ITEM_KEYWORDS)) return undefined;
  if (item.additionalProperties !== undefined && item.additionalProperties !== false) {
    return undefined;
  }
  if (!isJsonObject(item.properties)) return undefined;
  const required = new Set(Array.isArray(item.required) ? item.required : []);
  const properties: TextProperty[] = [];
  for (const [property, raw] of Object.entries(item.properties)) {
    const schema = deref<JsonObject | undefined>(spec, raw);
    const type = schema?.type;
    if (schema === undefined || (type !== "integer" && type !== "string")) return undefined;
    if (!only(schema, PROPERTY_KEYWORDS[type]) || !PLAIN_NAME.test(property)) return undefined;
    if (type === "integer" && !INTEGER_FORMATS.has(schema.format as string | undefined)) {
      return undefined;
    }
    properties.push({
      property,
      column: columnOf(property),
      type,
      required: required.has(property),
    });
  }
  // The next page's cursor is the last item's id.
  const id = properties.find((p) => p.property === "id");
  return id?.type === "integer" && id.required ? properties : undefined;
}

/** The largest integer JavaScript holds exactly: beyond it, the objects' path rounds. */
const SAFE = "9007199254740991";

/**
 * The SQLite query of a page as the JSON text of its items (`items`, textPageItems), around the
 * page query `inner` over a table whose columns are `table` (`PRAGMA table_info`): one row of
 * the text (`[...]`), the number of items, the last id, and 1 when the text is exact, 0 when the
 * page holds a value the objects' path would write otherwise, or refuse (then it answers the
 * page). Undefined when a property has no column of its type's affinity.
 *
 * Each item is `json_object(...)` in the schema's order, which writes integers and strings as
 * JSON.stringify does (the store tests compare every control character, and quotes, backslashes
 * and characters beyond the BMP); an optional property's null (never set) is then taken out of
 * the text by the `removals` (`replaceAll` in JavaScript, half the time of SQLite's `replace`),
 * which is exact: outside a string a `"` opens a string, and inside one every `"` is escaped, so
 * `,"status":null` (or `{"status":null`) can only be that member.
 * Exactness is checked once per page, on aggregates, not per row (a per-row `typeof` filter
 * would run for every row of every page): `sum` of an integer column is an integer only if
 * every value is one (a REAL, a TEXT or a BLOB makes it REAL; one too large overflows, and the
 * failed query falls back too); `min` and `max` keep it within what JavaScript holds; `max` of a text column is a BLOB if
 * any value is one (SQLite orders BLOBs after text); `count` finds a required property's null.
 * With `guard`, an SQL condition true when no row of the table holds such a value (text-guard.ts:
 * the triggers that record them as they are written), the page is not checked at all: the
 * aggregates are work every page would pay for while no row needs them.
 */
export function sqliteTextPageSql(
  inner: string,
  items: readonly TextProperty[],
  table: readonly TableColumnInfo[],
  rowidAlias: string | undefined,
  guard?: string,
): TextPageSql | undefined {
  const columns = textColumns(items, table);
  if (columns === undefined) return undefined;
  const checks: string[] = [];
  const members: string[] = [];
  const removals: [string, string][] = [];
  for (const [i, { item, column, nullable }] of columns.entries()) {
    const c = sqlIdentifier(column.name);
    members.push(`'${item.property}', ${c}`);
    if (item.type === "integer") {
      if (item.column !== rowidAlias) checks.push(`typeof(sum(${c})) in ('integer', 'null')`);
      checks.push(`coalesce(min(${c}) >= -${SAFE} and max(${c}) <= ${SAFE}, 1)`);
    } else {
      checks.push(`typeof(max(${c})) in ('text', 'null')`);
    }
    if (item.required && nullable) checks.push(`count(${c}) = count(*)`);
    if (!item.required && nullable) {
      const member = `"${item.property}":null`;
      if (i > 0) removals.push([`,${member}`, ""]);
      else {
        removals.push([`{${member},`, "{"]);
        removals.push([`{${member}}`, "{}"]);
      }
    }
  }
  const text = `group_concat(json_object(${members.join(", ")}), ',')`;
  const id = sqlIdentifier(columnOfId(items));
  const checked = checks.length === 0 ? "1" : checks.map((check) => `(${check})`).join(" and ");
  const sql = `select '[' || coalesce(${text}, '') || ']', count(*), max(${id}), ${guard ?? checked} from (${inner})`;
  return { sql, removals };
}

/**
 * The condition on one row (its columns named by `ref`) under which the text would not write the
 * row's items exactly: what `sqliteTextPageSql`'s aggregates find in a page, asked of one row
 * (text-guard.ts records such rows as they are written). Never NULL. Undefined where the page
 * query is.
 */
export function sqliteOddRowSql(
  items: readonly TextProperty[],
  table: readonly TableColumnInfo[],
  ref: (column: string) => string,
): string | undefined {
  const columns = textColumns(items, table);
  if (columns === undefined) return undefined;
  const odd = columns.map(({ item, column, nullable }) => {
    const c = ref(sqlIdentifier(column.name));
    const parts =
      item.type === "integer"
        ? [
            `typeof(${c}) not in ('integer', 'null')`,
            `coalesce(${c} not between -${SAFE} and ${SAFE}, 0)`,
          ]
        : [`typeof(${c}) not in ('text', 'null')`];
    if (item.required && nullable) parts.push(`${c} is null`);
    return parts.join(" or ");
  });
  return `(${odd.map((part) => `(${part})`).join(" or ")})`;
}

/**
 * Each item's column (`PRAGMA table_info`) and whether it may hold NULL, or undefined when one
 * has no column of its type's affinity.
 */
function textColumns(
  items: readonly TextProperty[],
  table: readonly TableColumnInfo[],
): { item: TextProperty; column: TableColumnInfo; nullable: boolean }[] | undefined {
  const columns = [];
  for (const item of items) {
    const column = table.find((c) => c.name === item.column);
    if (
      column === undefined ||
      affinity(column.type) !== (item.type === "integer" ? "integer" : "text")
    ) {
      return undefined;
    }
    columns.push({ item, column, nullable: column.notnull === 0 && column.pk === 0 });
  }
  return columns;
}

/** A text page query, and what to take out of its text (each `[from, to]`, every occurrence). */
export interface TextPageSql {
  sql: string;
  removals: [string, string][];
}

/** The page's JSON text as the query answered it, with the removals made. */
export function textOfPage(answered: string, removals: readonly [string, string][]): string {
  let text = answered;
  for (const [from, to] of removals) text = text.replaceAll(from, to);
  return text;
}

function columnOfId(items: readonly TextProperty[]): string {
  return (items.find((item) => item.property === "id") as TextProperty).column;
}

/** PostgreSQL column types (`data_type`) of each JSON type the text writes exactly. */
const POSTGRES_TEXT_TYPES: Record<TextProperty["type"], Set<string>> = {
  integer: new Set(["bigint", "integer", "smallint"]),
  string: new Set(["text", "character varying"]),
};

/** A column as information_schema describes it, for the text page query. */
export interface PostgresTextColumn {
  name: string;
  /** `data_type`. */
  type: string;
  /** `is_nullable = 'YES'`. */
  nullable: boolean;
}

/**
 * The PostgreSQL query of a page as the JSON text of its items: `sqliteTextPageSql`'s
 * counterpart, around the page query `inner` whose last parameter is its limit, asked with the
 * page's size plus one. One row: `page` (`[...]`, the first rows up to the limit less one),
 * `count` and `last_id` of those, `more` (the one more row exists) and `exact`. Undefined when a
 * property has no column of a type written exactly.
 *
 * Each item is `'{' || concat_ws(',', '"id":' || id, '"name":' || to_json(name)::text, ...) ||
 * '}'` in the schema's order: `concat_ws` skips the member of a null (never set) property, and
 * `to_json` escapes a string as JSON.stringify does (the PostgreSQL suite compares them byte for
 * byte). Types are the columns' own, so exactness is only a bigint beyond what JavaScript holds
 * and a required property's null. The work is PostgreSQL's, in its own process; the server gets
 * one text and parses nothing.
 */
export function postgresTextPageSql(
  inner: string,
  items: readonly TextProperty[],
  table: readonly PostgresTextColumn[],
): string | undefined {
  const limit = Math.max(...Array.from(inner.matchAll(/\$(\d+)\b/g), (m) => Number(m[1])));
  if (!Number.isFinite(limit)) return undefined;
  const members: string[] = [];
  const checks: string[] = [];
  for (const item of items) {
    const column = table.find((c) => c.name === item.column);
    if (column === undefined || !POSTGRES_TEXT_TYPES[item.type].has(column.type)) return undefined;
    const c = sqlIdentifier(item.column);
    const value = item.type === "integer" ? `${c}::text` : `to_json(${c})::text`;
    members.push(`'"${item.property}":' || ${value}`);
    if (column.type === "bigint") {
      checks.push(`coalesce(min(${c}) >= -${SAFE} and max(${c}) <= ${SAFE}, true)`);
    }
    if (item.required && column.nullable) checks.push(`count(${c}) = count(*)`);
  }
  const id = sqlIdentifier(columnOfId(items));
  const inPage = `filter (where row_n < $${limit})`;
  const exact = checks.length === 0 ? "true" : checks.join(" and ");
  return `select '[' || coalesce(string_agg(item, ',' order by ${id}) ${inPage}, '') || ']' as page,
    (count(*) ${inPage})::int as count, (max(${id}) ${inPage})::float8 as last_id,
    count(*) >= $${limit} as more, ${exact} as exact
    from (select row_number() over (order by ${id}) as row_n, page_rows.*,
      '{' || concat_ws(',', ${members.join(", ")}) || '}' as item
      from (${inner}) as page_rows) as numbered_rows`;
}
