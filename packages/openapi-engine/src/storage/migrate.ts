/**
 * Migrations, run on every start: an application gives its list (one per engine where the engines
 * must differ, as in how an auto-assigned 64-bit id is declared), this runs what is missing.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from "kysely";

/** The database engines a store can run on. */
export type Engine = "sqlite" | "postgres";

/** An application's migrations, by name, for one engine. Names never change once released. */
export type MigrationList = (engine: Engine) => Record<string, Migration>;

/** Brings the schema up to date; safe to run on every start and from several processes. */
export async function migrateToLatest(
  db: Kysely<unknown>,
  migrations: Record<string, Migration>,
  schema?: string,
): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
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
