// The bundle `pnpm bundle` wrote (dist/openapi.json, what the server, mock, docs and types read)
// carries each deprecated operation's own header values: redocly.yaml runs the spec-facts
// decorator, and its values are those the server sends (`deprecationHeaders`).
import { describe, expect, it } from "vitest";
import { deprecationHeaders, operationDeprecation, specOperations } from "../src/index.js";
import { deref, type Json, spec } from "./spec.js";

describe("the bundle's deprecation headers", () => {
  const operations = specOperations(spec);
  const deprecated = operations.filter((op) => op.deprecated);

  it("every header a deprecated operation's responses declare has the value the server sends", () => {
    expect(deprecated.length).toBeGreaterThan(0);
    let checked = 0;
    for (const op of deprecated) {
      const deprecation = operationDeprecation(spec, op, operations);
      const sent: Record<string, string> = deprecation ? deprecationHeaders(deprecation) : {};
      for (const [status, raw] of Object.entries(op.operation.responses as Json)) {
        for (const [name, header] of Object.entries(deref(raw).headers ?? {}) as [string, Json][]) {
          const value = sent[name];
          if (value === undefined) continue;
          const where = `${op.operationId} ${status} ${name}`;
          if (name === "Link") {
            // One field may carry several links (RFC 8288): a deprecated list's next page too.
            expect(String(deref(header).example).split(/,\s*(?=<)/), where).toContain(value);
          } else {
            expect(deref(header).example, where).toBe(value);
            expect(deref(header).schema.const, where).toBe(value);
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
