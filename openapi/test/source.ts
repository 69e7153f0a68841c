/**
 * The hand-written spec, openapi.yaml, parsed with the line of every value: for the test that
 * compares it with the interface document, whose failures name the line to change. The test of
 * that test points `INTERFACE_TEST_SPEC` at an edited copy.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect } from "vitest";
import { parse } from "yaml";
import type { OpenApiDocument } from "../src/document.js";
import { type SpecPath, sourceLines } from "../src/source-lines.js";
import { specOperations } from "../src/spec-operations.js";
import { follow, type Located, operationPath } from "../src/spec-walk.js";
import type { Json } from "./spec.js";

const here = new URL("..", import.meta.url).pathname;
const file = process.env.INTERFACE_TEST_SPEC ?? join(here, "openapi.yaml");
const shown = relative(join(here, ".."), file);
const text = readFileSync(file, "utf8");
const lines = sourceLines(text);

/** openapi.yaml, parsed (its `$ref`s as written). */
export const source = parse(text) as OpenApiDocument;

/** `openapi/openapi.yaml:LINE` (the file relative to the repository) of the value at `path`. */
export function lineOf(path: SpecPath): string {
  return `${shown}:${lines.lineOf(path)}`;
}

/** The node at `path`, `$ref`s followed, with where it is written; undefined when missing. */
export function at(path: SpecPath): Located<Json> | undefined {
  const parent = path.slice(0, -1);
  const holder = parent.length === 0 ? { node: source, path: [] } : at(parent);
  const key = path[path.length - 1];
  if (key === undefined) return { node: source, path: [] };
  if (!holder || typeof holder.node !== "object" || holder.node === null) return undefined;
  return follow(source, holder.node[key], [...holder.path, key]) ?? locatedValue(holder, key);
}

/** A plain (non-object) value under `holder`. */
function locatedValue(holder: Located<Json>, key: string | number): Located<Json> | undefined {
  const value = holder.node[key];
  return value === undefined ? undefined : { node: value, path: [...holder.path, key] };
}

/** The path of the operation `operationId`, or of `paths` when the spec has none by that id. */
export function operationAt(operationId: string): SpecPath {
  const found = specOperations(source).find((op) => op.operationId === operationId);
  return found ? operationPath(found) : ["paths"];
}

/** The operation's own parameter `name`, `$ref` followed, with where it is written. */
export function parameterOf(operationId: string, name: string): Located<Json> | undefined {
  const list = [...operationAt(operationId), "parameters"];
  const count = (at(list)?.node ?? []).length as number;
  return Array.from({ length: count }, (_, i) => at([...list, i])).find(
    (p) => p?.node.name === name,
  );
}

/** The schema of the JSON body at `path` (a response or request body) as written: a `$ref`. */
export const jsonSchema = (path: SpecPath): Json =>
  at(path)?.node.content?.["application/json"]?.schema;

/** A `$ref` to a schema of the components. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The path of the first value of `actual` that is not `expected`'s, where the spec has it. */
function differing(path: SpecPath, actual: unknown, expected: unknown): SpecPath {
  if (typeof actual !== "object" || actual === null || typeof expected !== "object") return path;
  const key = Object.keys(expected ?? {}).find(
    (k) => JSON.stringify((actual as Json)[k]) !== JSON.stringify((expected as Json)[k]),
  );
  return key !== undefined && at([...path, key]) ? [...path, key] : path;
}

/** Asserts `actual` is what the document's `statement` says; one message names both. */
export function agrees(statement: string, path: SpecPath, actual: unknown, expected: unknown) {
  const where = lineOf(differing(path, actual, expected));
  const message = `The interface document says: "${statement}". The spec departs from it at ${where}`;
  expect(actual, message).toEqual(expected);
}
