// The contract's own rule for identifiers: JavaScript clients read JSON numbers as doubles, so
// every int64 the contract declares is bounded to the integers a double holds exactly.
import { describe, expect, it } from "vitest";
import { type Json, spec } from "./spec.js";

/** Every schema of the bundle with `format: int64`, and where it is. */
function int64Schemas(node: Json, path: string, found: [string, Json][] = []): [string, Json][] {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) int64Schemas(item, `${path}/${i}`, found);
  } else if (node && typeof node === "object") {
    if (node.format === "int64") found.push([path, node]);
    for (const [key, value] of Object.entries(node)) int64Schemas(value, `${path}/${key}`, found);
  }
  return found;
}

describe("int64 values", () => {
  it("every int64 schema has a maximum no larger than Number.MAX_SAFE_INTEGER", () => {
    const schemas = int64Schemas(spec, "#");
    expect(schemas.length).toBeGreaterThan(0);
    const unbounded = schemas.filter(([, schema]) => !(schema.maximum <= Number.MAX_SAFE_INTEGER));
    expect(unbounded.map(([path]) => path)).toEqual([]);
  });
});
