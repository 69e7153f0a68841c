/**
 * `keys backup <file>`: an online copy of the SQLite database, while the server runs, with
 * SQLite's `VACUUM INTO` (one read transaction: a consistent snapshot, WAL included; writers carry
 * on meanwhile). The copy is a complete database file: start a server on it to restore. PostgreSQL
 * has its own tools (pg_dump), and this refuses it.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { AppConfig } from "@animal-store/openapi-engine";
import Database from "libsql";

/** Where the command writes. */
interface Io {
  stdout: { write(text: string): unknown };
}

export async function backup(
  args: string[],
  io: Io,
  context: { config: AppConfig; usageError: (message: string) => Error },
): Promise<void> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [target] = positionals;
  if (target === undefined || positionals.length > 1) {
    throw context.usageError("backup needs exactly one file to write");
  }
  const { database } = context.config;
  if (database.engine !== "sqlite") {
    throw new Error("backup copies a SQLite database; for PostgreSQL use pg_dump");
  }
  const file = resolve(target);
  if (existsSync(file)) throw new Error(`${file} exists: backup never overwrites a file`);
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(database.path);
  try {
    db.prepare("VACUUM INTO ?").run(file);
  } finally {
    db.close();
  }
  io.stdout.write(`backed up ${database.path} to ${file}\n`);
}
