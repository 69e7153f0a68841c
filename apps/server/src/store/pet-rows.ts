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

/** A column name as an SQL identifier, quoted (both engines' rule: `"` doubled). */
export function sqlIdentifier(column: string): string {
  return `"${column.replaceAll('"', '""')}"`;
}

/** The property a column holds. */
export function propertyOf(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * `compile(columns)`, once per column set for the whole process. Every store (the warm-up's
 * scratch store has its own) and every page shape then calls the same function: a call site
 * such as a store's `rows.map(mapper)` stays monomorphic and V8 inlines the mapper there. One
 * compiled per store made that call polymorphic, and every row of a page paid for a call.
 */
function oncePerColumnSet<F>(compile: (columns: string[]) => F): (columns: string[]) => F {
  const compiled = new Map<string, F>();
  return (columns) => {
    const key = JSON.stringify(columns);
    let made = compiled.get(key);
    if (made === undefined) {
      made = compile(columns);
      compiled.set(key, made);
    }
    return made;
  };
}

/** A function building a pet from `row`, reading each column's value with `read(column, i)`. */
function compileMapper<Row>(columns: string[], read: (column: string, i: number) => string) {
  // Column names come from our own schema; JSON.stringify makes each a safe string literal.
  const body = columns
    .map((column, i) => {
      const to = JSON.stringify(propertyOf(column));
      return `v = ${read(column, i)}; if (v !== null && v !== undefined) pet[${to}] = v;`;
    })
    .join("\n");
  return new Function("row", `const pet = {}; let v;\n${body}\nreturn pet;`) as (row: Row) => Pet;
}

/** The mapper for rows of exactly these columns, in this order. */
export const mapperFor = oncePerColumnSet((columns) =>
  compileMapper<Record<string, unknown>>(columns, (column) => `row[${JSON.stringify(column)}]`),
);

/**
 * The same for a row read as an array (a raw statement's, or a JSON page's, in `columns` order):
 * no object per row from the driver, one pet built straight from the values.
 */
export const arrayMapperFor = oncePerColumnSet((columns) =>
  compileMapper<unknown[]>(columns, (_column, i) => `row[${i}]`),
);

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
export const compileRowValues = oncePerColumnSet((columns) => {
  const body = columns.map((column) => `pet[${JSON.stringify(propertyOf(column))}] ?? null`);
  return new Function("pet", `return [${body.join(", ")}];`) as (pet: NewPet) => unknown[];
});
