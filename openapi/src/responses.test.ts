import { describe, expect, it } from "vitest";
import { deref, isJsonObject } from "./document.js";
import { loadBundledSpec } from "./load.js";
import { documentedHeaderNames, documentedResponses, responseForStatus } from "./responses.js";
import { specOperations } from "./spec-operations.js";

const { spec } = loadBundledSpec();
const operations = specOperations(spec);

describe("documentedResponses", () => {
  it("resolves each response of each operation with its headers, required flags and schemas", () => {
    for (const op of operations) {
      const responses = documentedResponses(spec, op);
      expect(responses.map((r) => r.status)).toEqual(op.statuses);
      for (const response of responses) {
        const raw = deref<Record<string, unknown>>(
          spec,
          (op.operation.responses as never)[response.status],
        );
        const rawHeaders = isJsonObject(raw.headers) ? raw.headers : {};
        expect(response.headers.map((h) => h.name)).toEqual(Object.keys(rawHeaders));
        for (const header of response.headers) {
          const rawHeader = deref<Record<string, unknown>>(spec, rawHeaders[header.name]);
          expect(header.required).toBe(rawHeader.required === true);
          expect(header.schema).toEqual(rawHeader.schema);
        }
      }
    }
  });
});

describe("responseForStatus", () => {
  const responses = [
    { status: "200", description: "", headers: [], content: {} },
    { status: "4XX", description: "", headers: [], content: {} },
    { status: "default", description: "", headers: [], content: {} },
  ];

  it("takes the exact code, then its class, then default", () => {
    expect(responseForStatus(responses, 200)?.status).toBe("200");
    expect(responseForStatus(responses, 404)?.status).toBe("4XX");
    expect(responseForStatus(responses, 503)?.status).toBe("default");
    expect(responseForStatus(responses.slice(0, 1), 404)).toBeUndefined();
  });
});

describe("documentedHeaderNames", () => {
  it("lists every documented response header once", () => {
    const names = documentedHeaderNames(spec, operations);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    for (const op of operations) {
      for (const response of documentedResponses(spec, op)) {
        for (const { name } of response.headers) expect(names).toContain(name);
      }
    }
  });
});
