/**
 * Migrations, run on every start: an application gives its list (one per engine where the engines
 * must differ, as in how an auto-assigned 64-bit id is declared), this runs what is missing. The
 * pending migrations run in one transaction on both engines (SQLite's adapter says so in
 * sqlite.ts), so a failing one leaves the database as it was; its error names the migration and
 * the statement that failed.
 */
import {
  type Kysely,
  type KyselyPlugin,
  type Migration,
  type MigrationProvider,
  Migrator,
  type RootOperationNode,
} from "kysely";

/** Remembers the last statement sent, so a failure can name it. */
function lastStatement(): KyselyPlugin & { node: RootOperationNode | undefined } {
  return {
    node: undefined,
    transformQuery(args) {
      this.node = args.node;
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
}

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
  let failedStatement: string | undefined;
  // Each migration runs on a connection that remembers its last statement, read when it throws.
  const tracked: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(migrations)) {
    tracked[name] = {
      ...migration,
      async up(migrationDb: Kysely<unknown>) {
        const last = lastStatement();
        try {
          await migration.up(migrationDb.withPlugin(last));
        } catch (err) {
          if (last.node) {
            const compiled = migrationDb.getExecutor().compileQuery(last.node, {
              queryId: "failed-migration",
            });
            failedStatement = compiled.sql;
          }
          throw err;
        }
      },
    };
  }
  const provider: MigrationProvider = { getMigrations: async () => tracked };
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
    const statement = failedStatement ? ` (statement: ${failedStatement})` : "";
    throw new Error(
      `database migration ${failed ?? ""} failed: ${reason}${statement}; the database is left as it was`,
    );
  }
}
