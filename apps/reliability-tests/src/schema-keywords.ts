/**
 * The JSON Schema keywords an operation's input uses, where (a parameter, the body or a property
 * inside it): the rows of the keyword coverage report and the targets of the boundary cases.
 * Read off the spec's schemas; a keyword the generators do not understand fails in
 * `resolveSchema`, so nothing is counted that the suite cannot exercise.
 */
import { resolveSchema, SUPPORTED } from "./schema-arbitrary.js";
import type { JsonSchema, OperationSpec } from "./spec.js";

/** Where in a request a schema applies. */
export type Slot =
  | { in: "path" | "query" | "header"; name: string }
  | { in: "body"; pointer: string[] }
  | { in: "requestBody" };

/** One keyword of one slot of an operation. */
export interface KeywordCell {
  slot: Slot;
  /** `query limit`, `body`, `body/name`, `requestBody`. */
  location: string;
  keyword: string;
  /** The resolved schema the keyword belongs to (for boundary values). */
  schema: JsonSchema;
  /** Why no request can exercise it, when none can. */
  unreachable?: string;
}

/** Keywords that constrain a value: the converter's, less the structural ones. */
const VALIDATION = [...SUPPORTED].filter((k) => !["$ref", "properties", "items"].includes(k));

/** The label of a slot in reports. */
export function slotLabel(slot: Slot): string {
  if (slot.in === "body") return ["body", ...slot.pointer].join("/");
  if (slot.in === "requestBody") return "requestBody";
  return `${slot.in} ${slot.name}`;
}

function cellsOf(slot: Slot, schema: JsonSchema, doc: unknown): KeywordCell[] {
  const s = resolveSchema(schema, doc);
  const location = slotLabel(slot);
  const cells: KeywordCell[] = [];
  for (const keyword of VALIDATION) {
    if (!(keyword in s)) continue;
    if (keyword === "additionalProperties" && s.additionalProperties !== false) continue;
    const cell: KeywordCell = { slot, location, keyword, schema: s };
    if (keyword === "type" && s.type === "string" && slot.in !== "body") {
      cell.unreachable = "every parameter text is a string";
    }
    cells.push(cell);
  }
  if (slot.in === "body") {
    const properties = (s.properties as Record<string, JsonSchema> | undefined) ?? {};
    for (const [name, sub] of Object.entries(properties)) {
      cells.push(...cellsOf({ in: "body", pointer: [...slot.pointer, name] }, sub, doc));
    }
    if (s.items)
      cells.push(
        ...cellsOf({ in: "body", pointer: [...slot.pointer, "*"] }, s.items as JsonSchema, doc),
      );
  }
  return cells;
}

/** Every keyword cell of `op`'s parameters and body, in the spec's order. */
export function operationKeywords(op: OperationSpec, doc: unknown): KeywordCell[] {
  const cells: KeywordCell[] = [];
  for (const p of op.parameters) {
    if (p.in === "cookie") continue;
    const slot: Slot = { in: p.in, name: p.name };
    if (p.required && p.in !== "path") {
      cells.push({ slot, location: slotLabel(slot), keyword: "required", schema: p.schema });
    }
    cells.push(...cellsOf(slot, p.schema, doc));
  }
  if (op.requestBody) {
    if (op.requestBody.required) {
      const slot: Slot = { in: "requestBody" };
      cells.push({
        slot,
        location: "requestBody",
        keyword: "required",
        schema: op.requestBody.schema,
      });
    }
    cells.push(...cellsOf({ in: "body", pointer: [] }, op.requestBody.schema, doc));
  }
  return cells;
}
