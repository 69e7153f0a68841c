/**
 * Columns added to the tables after their first migration, one migration each, oldest first:
 * written by `pnpm migration add-property <Schema> <property>` when the contract gains an
 * optional property a client may send (storage-check.ts refuses to start until it has its
 * column). Names are recorded in each database: never rename or edit an entry once released.
 */

/** One added column, with its SQL type on each engine. */
export interface AddedColumn {
  /** The migration's name, e.g. `0003_pets_color`. */
  name: string;
  table: string;
  column: string;
  type: { sqlite: string; postgres: string };
}

export const ADDED_COLUMNS: AddedColumn[] = [
  // pnpm migration add-property appends here.
];
