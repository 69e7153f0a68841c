/**
 * Rows of `pets` and the API's Pet, by one naming rule: a property `categoryId` is a column
 * `category_id`, and a null column is an absent property (an optional property never set). So a
 * property added to the contract needs a column (a migration and its PetsTable field), and
 * nothing here. Rows are read by a mapper compiled once per column set: as fast as a hand-written
 * object literal (a generic loop over the columns showed in the profile of GET limit=100).
 */
import type { NewPet, Pet } from "@animal-store/api-types";

/** The column a property is stored in. */
export function columnOf(property: string): string {
  return property.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** The property a column holds. */
export function propertyOf(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

type RowMapper = (row: Record<string, unknown>) => Pet;
const mappers = new Map<string, RowMapper>();

/** The mapper for rows of exactly these columns, in this order (compiled once, then cached). */
export function mapperFor(columns: string[]): RowMapper {
  const key = columns.join(",");
  let mapper = mappers.get(key);
  if (mapper === undefined) {
    // Column names come from our own schema; JSON.stringify makes each a safe string literal.
    const body = columns
      .map((column) => {
        const from = JSON.stringify(column);
        const to = JSON.stringify(propertyOf(column));
        return `v = row[${from}]; if (v !== null && v !== undefined) pet[${to}] = v;`;
      })
      .join("\n");
    mapper = new Function("row", `const pet = {}; let v;\n${body}\nreturn pet;`) as RowMapper;
    mappers.set(key, mapper);
  }
  return mapper;
}

type ArrayRowMapper = (row: unknown[]) => Pet;
const arrayMappers = new Map<string, ArrayRowMapper>();

/**
 * The same for a row read as an array (a raw statement's, in `columns` order): no object per row
 * from the driver, one pet built straight from the values. One function per column set for the
 * whole process, like `mapperFor`'s: the stores' `rows.map(mapper)` then always sees the same
 * function, which V8 inlines there. A mapper compiled per store (the warm-up's scratch store has
 * its own) or per page shape made that call site polymorphic, and every row of a page paid for
 * a call (apps/bench/README.md).
 */
export function arrayMapperFor(columns: string[]): ArrayRowMapper {
  const key = JSON.stringify(columns);
  let mapper = arrayMappers.get(key);
  if (mapper === undefined) {
    const body = columns
      .map((column, i) => {
        const to = JSON.stringify(propertyOf(column));
        return `v = row[${i}]; if (v !== null && v !== undefined) pet[${to}] = v;`;
      })
      .join("\n");
    mapper = new Function("row", `const pet = {}; let v;\n${body}\nreturn pet;`) as ArrayRowMapper;
    arrayMappers.set(key, mapper);
  }
  return mapper;
}

/** `pets` rows (all of one query, so one column set) as the API shows them. */
export function toPets(rows: ReadonlyArray<Record<string, unknown>>): Pet[] {
  const first = rows[0];
  if (first === undefined) return [];
  return rows.map(mapperFor(Object.keys(first)));
}

/** One `pets` row as the API shows it. */
export function toPet(row: Record<string, unknown>): Pet {
  return mapperFor(Object.keys(row))(row);
}

/** The columns and values a new pet is inserted with (properties it does not have are left out). */
export function toRow(pet: NewPet): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [property, value] of Object.entries(pet)) {
    if (value !== undefined) row[columnOf(property)] = value;
  }
  return row;
}

/**
 * The values to bind, in `columns`' order, for inserting `pet` (null for a property it lacks):
 * compiled once for the table's columns, so a create allocates nothing but the array.
 */
export function compileRowValues(columns: string[]): (pet: NewPet) => unknown[] {
  const key = JSON.stringify(columns);
  let compiled = rowValues.get(key);
  if (compiled === undefined) {
    const body = columns
      .map((column) => `pet[${JSON.stringify(propertyOf(column))}] ?? null`)
      .join(", ");
    compiled = new Function("pet", `return [${body}];`) as (pet: NewPet) => unknown[];
    rowValues.set(key, compiled);
  }
  return compiled;
}

/** compileRowValues' functions, one per column set (see arrayMapperFor). */
const rowValues = new Map<string, (pet: NewPet) => unknown[]>();
