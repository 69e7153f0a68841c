/**
 * `spec-facts/error-codes`: the error-code tables of `info.description` restate the codes the
 * `Error` body allows (its `code` enum) and those of `info.x-connection-errors`, with a status
 * each; the error examples state a code and a status too. Every code has a row, every row a code,
 * every example's `status` is the status of the response it is under, and the row of its code
 * says the same status. Each difference names both lines.
 */
import {
  follow,
  isJsonObject,
  type JsonObject,
  jsonMedia,
  operationResponses,
  responseExamples,
  type SpecPath,
  specOperations,
} from "@animal-store/openapi";
import { proseTables, type TableRow } from "./prose-text.js";
import { rootRule, type SpecReporter } from "./report.js";

const DESCRIPTION = ["info", "description"];
const CONNECTION = ["info", "x-connection-errors", "schema", "properties"];

/** Each code an error body's `code` enum allows, with where that enum is written. */
function errorBodyCodes(facts: SpecReporter): Map<string, SpecPath> {
  const codes = new Map<string, SpecPath>();
  for (const operation of specOperations(facts.spec)) {
    for (const response of operationResponses(facts.spec, operation)) {
      if (!/^[45]/.test(response.status)) continue;
      const media = jsonMedia(facts.spec, response);
      const schema = media && follow(facts.spec, media.node.schema, [...media.path, "schema"]);
      const properties = schema?.node.properties;
      const code =
        schema &&
        isJsonObject(properties) &&
        follow(facts.spec, properties.code, [...schema.path, "properties", "code"]);
      if (!code || !Array.isArray(code.node.enum)) continue;
      for (const [i, value] of code.node.enum.entries()) {
        if (!codes.has(String(value))) codes.set(String(value), [...code.path, "enum", i]);
      }
    }
  }
  return codes;
}

/** The codes and statuses of `info.x-connection-errors`, each code with where its enum is written. */
function connectionErrors(facts: SpecReporter) {
  const schema = (facts.spec.info["x-connection-errors"] as JsonObject | undefined)?.schema;
  const properties =
    isJsonObject(schema) && isJsonObject(schema.properties) ? schema.properties : {};
  const enumOf = (node: unknown) =>
    isJsonObject(node) && Array.isArray(node.enum) ? node.enum : [];
  return {
    codes: new Map(
      enumOf(properties.code).map((code, i) => [String(code), [...CONNECTION, "code", "enum", i]]),
    ),
    statuses: enumOf(properties.status).map(String),
  };
}

/** Every code has a row, every row a code; a connection code's row has one of their statuses. */
function checkTables(facts: SpecReporter, rows: Map<string, TableRow>, tableLine: number) {
  const body = errorBodyCodes(facts);
  const connection = connectionErrors(facts);
  const known = new Map([...connection.codes, ...body]);
  const bodyEnum = facts.at((body.values().next().value ?? ["components"]).slice(0, -1));
  for (const [code, row] of rows) {
    const rowAt = facts.atText(DESCRIPTION, row.line);
    if (!known.has(code)) {
      facts.report(
        DESCRIPTION,
        `The error table's code "${code}" (${rowAt}) is not in the Error body's code enum (${bodyEnum}) nor in info.x-connection-errors (${facts.at(CONNECTION)}).`,
      );
    } else if (!body.has(code) && !connection.statuses.includes(row.cells[1] ?? "")) {
      facts.report(
        DESCRIPTION,
        `The error table gives "${code}" status ${row.cells[1]} (${rowAt}), which is not one of info.x-connection-errors' statuses ${connection.statuses.join(", ")} (${facts.at([...CONNECTION, "status"])}).`,
      );
    }
  }
  for (const [code, where] of known) {
    if (rows.has(code)) continue;
    facts.report(
      where,
      `The code "${code}" (${facts.at(where)}) has no row in the error tables of info.description (${facts.atText(DESCRIPTION, tableLine)}).`,
    );
  }
}

/** Each error example's status is its response's, and the one its code's row gives. */
function checkExamples(facts: SpecReporter, rows: Map<string, TableRow>) {
  const seen = new Set<string>();
  for (const operation of specOperations(facts.spec)) {
    for (const example of responseExamples(facts.spec, operation)) {
      const value = example.node;
      const key = example.path.join("/");
      if (!/^[45]\d\d$/.test(example.status) || !isJsonObject(value) || seen.has(key)) continue;
      seen.add(key);
      const statusAt = facts.at([...example.path, "status"]);
      if (value.status !== undefined && value.status !== Number(example.status)) {
        facts.report(
          [...example.path, "status"],
          `The example "${example.name}" says status ${String(value.status)} (${statusAt}) under a ${example.status} response (${facts.at(example.response.path)}): an Error's status is the HTTP status of its response.`,
        );
      }
      const row = rows.get(String(value.code));
      if (row && row.cells[1] !== String(value.status)) {
        facts.report(
          [...example.path, "status"],
          `The error table gives "${String(value.code)}" status ${row.cells[1]} (${facts.atText(DESCRIPTION, row.line)}), but the example "${example.name}" answers it with ${String(value.status)} (${statusAt}).`,
        );
      }
    }
  }
}

/** The rule's visitor factory. */
export const errorCodesRule = rootRule((facts) => {
  const tables = proseTables(String(facts.spec.info.description ?? "")).filter(
    (table) =>
      table.header[0]?.toLowerCase() === "code" && table.header[1]?.toLowerCase() === "status",
  );
  const first = tables[0];
  if (first === undefined) return;
  const rows = new Map<string, TableRow>(
    tables.flatMap((table) => table.rows.map((row) => [row.cells[0] ?? "", row] as const)),
  );
  checkTables(facts, rows, first.line);
  checkExamples(facts, rows);
});
