/**
 * The one migration list for both engines. Migrations only differ where the engines must (how an
 * auto-assigned 64-bit id is declared); everything else is the same Kysely schema code.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from "kysely";

type Engine = "sqlite" | "postgres";

function migrationsFor(engine: Engine): Record<string, Migration> {
  return {
    "0001_pets_and_api_keys": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("pets")
          .addColumn("id", engine === "postgres" ? "bigint" : "integer", (col) =>
            engine === "postgres"
              ? col.primaryKey().generatedByDefaultAsIdentity()
              : // AUTOINCREMENT: an id is never handed out twice, even after the newest row goes.
                col.primaryKey().autoIncrement(),
          )
          .addColumn("name", "text", (col) => col.notNull())
          .addColumn("category_id", "bigint", (col) => col.notNull())
          .addColumn("status", "text")
          .execute();
        // The status filter and its id order in one index: listPets never sorts.
        await db.schema
          .createIndex("pets_status_id")
          .on("pets")
          .columns(["status", "id"])
          .execute();
        await db.schema
          .createTable("api_keys")
          .addColumn("id", "text", (col) => col.primaryKey())
          .addColumn("name", "text", (col) => col.notNull())
          .addColumn("plan", "text", (col) => col.notNull())
          .addColumn("per_minute", "integer")
          .addColumn("per_day", "integer")
          .addColumn("key_hash", "text", (col) => col.notNull().unique())
          .addColumn("created_at", "text", (col) => col.notNull())
          .addColumn("revoked_at", "text")
          .execute();
      },
    },
  };
}

/** Brings the schema up to date; safe to run on every start and from several processes. */
export async function migrateToLatest(
  db: Kysely<unknown>,
  engine: Engine,
  schema?: string,
): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(engine) };
  // Without a schema, Kysely takes migration tables in ANY schema of the database for its own,
  // so a second deployment in another schema would skip creating them and fail.
  const migrator = new Migrator({
    db,
    provider,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === "Error")?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`database migration ${failed ?? ""} failed: ${reason}`);
  }
}
