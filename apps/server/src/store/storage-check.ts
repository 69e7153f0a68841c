/**
 * Storage follows the schema, or the server says why not. Every property a client may send in
 * the body that creates a stored resource (`createPet`'s `NewPet`) must have a column in that
 * resource's table, by the one naming rule of pet-rows.ts; otherwise a `201` would answer without
 * what the client sent. Checked at start (and so on every save in `pnpm dev`, which keeps the last
 * good server): a property without its column stops the server with a message naming the
 * property, the table and the command that writes the migration.
 */
import {
  deref,
  isJsonObject,
  type JsonObject,
  type OpenApiDocument,
  specOperations,
} from "@animal-store/openapi";
import { columnOf } from "./pet-rows.js";
import type { StorageShape } from "./types.js";

/** The table each stored resource's rows live in, by the schema its create answers with. */
export const TABLES: Record<string, string> = { "#/components/schemas/Pet": "pets" };

/** A property sent to create a stored resource, and the column it needs. */
export interface StoredProperty {
  operationId: string;
  /** The request body's schema name, e.g. `NewPet`, or the operation's when inline. */
  schema: string;
  property: string;
  table: string;
  column: string;
}

const JSON_MEDIA = "application/json";

/** Every property of every create body, with the table and column it is stored in. */
export function storedProperties(spec: OpenApiDocument): StoredProperty[] {
  return specOperations(spec).flatMap((op) => {
    const created = deref<JsonObject | undefined>(spec, op.operation.responses)?.["201"];
    const answer = deref<JsonObject | undefined>(spec, created);
    const answered = isJsonObject(answer?.content) ? answer.content[JSON_MEDIA] : undefined;
    const resource =
      isJsonObject(answered) && isJsonObject(answered.schema) ? answered.schema.$ref : undefined;
    const media = isJsonObject(op.requestBody?.content)
      ? op.requestBody.content[JSON_MEDIA]
      : undefined;
    const bodyRef =
      isJsonObject(media) && isJsonObject(media.schema) ? media.schema.$ref : undefined;
    const body = isJsonObject(media)
      ? deref<JsonObject | undefined>(spec, media.schema)
      : undefined;
    if (!answered || !body) return [];
    const table = typeof resource === "string" ? TABLES[resource] : undefined;
    const schema =
      typeof bodyRef === "string" ? bodyRef.replace("#/components/schemas/", "") : op.operationId;
    const properties = isJsonObject(body.properties) ? Object.keys(body.properties) : [];
    return properties.map((property) => ({
      operationId: op.operationId,
      schema,
      property,
      table:
        table ??
        `(no table: add ${String(resource ?? op.operationId)} to TABLES in apps/server/src/store/storage-check.ts)`,
      column: columnOf(property),
    }));
  });
}

/** The message naming each property without its column, and the migration to write. */
export function unstoredMessage(missing: StoredProperty[]): string {
  const lines = missing.map(
    (p) =>
      `  ${p.schema}.${p.property} (sent to ${p.operationId}) has no column ${p.table}.${p.column}: write its migration with \`pnpm migration add-property ${p.schema} ${p.property}\``,
  );
  return [
    "the store cannot hold what the contract says a client may send (a 201 would drop it):",
    ...lines,
    "then restart (pnpm dev restarts on the migration's save).",
  ].join("\n");
}

/** Rejects naming every create-body property whose column is missing in `store`. */
export async function checkStorage(store: StorageShape, spec: OpenApiDocument): Promise<void> {
  const wanted = storedProperties(spec);
  const columns = new Map<string, Set<string>>();
  for (const table of new Set(wanted.map((p) => p.table))) {
    try {
      columns.set(table, new Set(await store.columnsOf(table)));
    } catch {
      // A database that cannot be reached yet (PostgreSQL prepared later): the server starts and
      // answers 503 meanwhile, as it would without this check.
      return;
    }
  }
  const missing = wanted.filter((p) => !columns.get(p.table)?.has(p.column));
  if (missing.length > 0) throw new Error(unstoredMessage(missing));
}
