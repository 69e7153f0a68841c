/**
 * A batch of creates on PostgreSQL as one statement whose text never changes:
 * `insert into pets (...) select * from unnest($1::text[], $2::bigint[], ...) returning *`, one
 * array per column, one element per create. Kysely's multi-row `values (...), (...)` is a new
 * statement text for every batch size: built in JavaScript for every batch, and parsed and
 * planned by PostgreSQL every time. This one is a named statement, parsed and planned once per
 * connection, whatever the batch. unnest yields the arrays' elements in order, so ids are drawn
 * in the batch's order, as before (batched-creates.ts pairs rows with creates and checks each).
 *
 * A property a create lacks is NULL in its column, which is what the multi-row insert stored
 * too (DEFAULT) as long as the column has no default: a table with a default on any column but
 * the id keeps Kysely's insert.
 */
import type { NewPet } from "@animal-store/api-types";
import { propertyOf, sqlIdentifier } from "./pet-rows.js";

/** A column of the table, as information_schema describes it. */
export interface TableColumn {
  name: string;
  /** `data_type`, e.g. `bigint`, `text`, `double precision`. */
  type: string;
  /** `column_default`: null when the column has none. */
  default: string | null;
}

/** The insert statement, and the arrays it is run with. */
export interface UnnestInsert {
  text: string;
  values: (pets: readonly NewPet[]) => unknown[][];
}

// information_schema says ARRAY and USER-DEFINED for types whose name it does not give: those
// columns keep the generic insert.
const NAMED_TYPE = /^[a-z][a-z0-9 ]*$/;

/** The unnest insert of a table with `columns`; undefined where the generic insert must stay. */
export function unnestInsert(columns: readonly TableColumn[]): UnnestInsert | undefined {
  const written = columns.filter((column) => column.name !== "id");
  const plain = written.every((column) => column.default === null && NAMED_TYPE.test(column.type));
  if (!plain || written.length === 0) return undefined;
  const names = written.map((column) => sqlIdentifier(column.name)).join(", ");
  const arrays = written.map((column, i) => `$${i + 1}::${column.type}[]`).join(", ");
  const properties = written.map((column) => propertyOf(column.name));
  return {
    text: `insert into pets (${names}) select * from unnest(${arrays}) returning *`,
    values: (pets) =>
      properties.map((property) =>
        pets.map((pet) => (pet as Record<string, unknown>)[property] ?? null),
      ),
  };
}
