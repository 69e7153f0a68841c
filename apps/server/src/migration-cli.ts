/**
 * `pnpm migration add-property <Schema> <property>`: writes the migration that stores an optional
 * property the contract added to a create body (the one storage-check.ts asks for), for SQLite and
 * PostgreSQL: an entry of store/added-columns.ts (a nullable column of the resource's table, its
 * SQL type from the property's schema type) and the column's field in schema.ts' table type.
 * Reads the bundled spec (`pnpm migration` bundles it first).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { deref, type JsonObject, loadBundledSpec } from "@animal-store/openapi";
import { ADDED_COLUMNS } from "./store/added-columns.js";
import { storedProperties } from "./store/storage-check.js";

const SQL_TYPES: Record<string, { sqlite: string; postgres: string; ts: string }> = {
  string: { sqlite: "text", postgres: "text", ts: "string" },
  integer: { sqlite: "bigint", postgres: "bigint", ts: "number" },
  number: { sqlite: "real", postgres: "double precision", ts: "number" },
};

// From dist/ or src/ alike, the sources to write are in src/store/.
const source = (file: string) => new URL(`../src/store/${file}`, import.meta.url);

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

// `pnpm migration ...` reaches here through `pnpm run migration -- ...`, and pnpm passes the `--`.
const args = process.argv.slice(2);
if (args[0] === "--") args.shift();
const [command, schemaName, property] = args;
if (command !== "add-property" || !schemaName || !property) {
  fail("usage: pnpm migration add-property <Schema> <property>", 2);
}
const { spec } = loadBundledSpec();
const target = storedProperties(spec).find(
  (p) => p.schema === schemaName && p.property === property,
);
if (!target) {
  fail(`${schemaName}.${property} is not a property of a body that creates a stored resource`);
}
if (target.table.startsWith("(")) fail(`${schemaName}.${property}: ${target.table}`);
if (ADDED_COLUMNS.some((c) => c.table === target.table && c.column === target.column)) {
  fail(`${target.table}.${target.column} already has its migration in store/added-columns.ts`);
}
const schema = deref<JsonObject>(spec, { $ref: `#/components/schemas/${schemaName}` });
const definition = deref<JsonObject>(spec, (schema.properties as JsonObject)[property]);
const sqlType = SQL_TYPES[String(definition.type)];
if (!sqlType) {
  fail(
    `${schemaName}.${property} is of type ${String(definition.type)}: only ${Object.keys(SQL_TYPES).join(", ")} are written; write its migration by hand in store/added-columns.ts`,
  );
}
const number = 3 + ADDED_COLUMNS.length;
const name = `${String(number).padStart(4, "0")}_${target.table}_${target.column}`;
const entry = `  {\n    name: "${name}",\n    table: "${target.table}",\n    column: "${target.column}",\n    type: { sqlite: "${sqlType.sqlite}", postgres: "${sqlType.postgres}" },\n  },\n`;
const columnsFile = source("added-columns.ts");
const marker = "  // pnpm migration add-property appends here.\n";
writeFileSync(columnsFile, readFileSync(columnsFile, "utf8").replace(marker, `${entry}${marker}`));
const schemaFile = source("schema.ts");
const tableType = readFileSync(schemaFile, "utf8").replace(
  /(export interface PetsTable \{[\s\S]*?)\n\}/,
  `$1\n  ${target.column}: ${sqlType.ts} | null;\n}`,
);
writeFileSync(schemaFile, tableType);
process.stdout.write(
  `wrote migration ${name}: ${target.table}.${target.column} ${sqlType.sqlite} (SQLite) / ${sqlType.postgres} (PostgreSQL), nullable, in apps/server/src/store/added-columns.ts, and its field in schema.ts. Rebuild and restart (pnpm start and pnpm dev do both).\n`,
);
