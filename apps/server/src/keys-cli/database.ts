/**
 * Which database a keys command acts on: named on stderr before anything happens (a mistyped
 * DATABASE_URL must not pass unnoticed), and a SQLite file that does not exist is an error unless
 * the user asks for it to be created (else a key would be stored where no server looks).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { DatabaseConfig } from "@animal-store/openapi-engine";

/** The database as shown to the user: a SQLite file's absolute path; a URL without its password. */
export function describeDatabase(database: DatabaseConfig): string {
  if (database.engine === "sqlite") {
    return database.path === ":memory:"
      ? "SQLite :memory:"
      : `SQLite file:${resolve(database.path)}`;
  }
  const url = new URL(database.url);
  if (url.password) url.password = "***";
  return `PostgreSQL ${url.toString()}${database.schema ? ` (schema ${database.schema})` : ""}`;
}

/** Why the command must not open `database`, or undefined when it may. */
export function missingDatabase(database: DatabaseConfig, create: boolean): string | undefined {
  if (create || database.engine !== "sqlite" || database.path === ":memory:") return undefined;
  if (existsSync(database.path)) return undefined;
  return `no database at ${resolve(database.path)} (check DATABASE_URL; start the server once to create it, or pass --create-database)`;
}
