import { describe, expect, it } from "vitest";
import { deref, type JsonObject, type OpenApiDocument } from "./document.js";
import { loadBundledSpec } from "./load.js";
import { documentedResponses } from "./responses.js";
import { specOperations } from "./spec-operations.js";
import { storedResources } from "./stored-resources.js";

const { spec } = loadBundledSpec();

/** Every example value of every 2xx JSON answer, arrays flattened. */
function successExamples(document: OpenApiDocument): unknown[] {
  return specOperations(document).flatMap((op) =>
    documentedResponses(document, op)
      .filter((r) => r.status.startsWith("2"))
      .flatMap((r) => Object.values(r.content["application/json"]?.examples ?? {}))
      .flatMap((example) => deref<{ value: unknown }>(document, example).value),
  );
}

// biome-ignore lint/suspicious/noExplicitAny: a scratch copy of the spec, edited as a person would.
type Json = any;

/** A copy of the bundled spec, edited. */
function edited(edit: (copy: Json) => void): OpenApiDocument {
  const copy = structuredClone(spec);
  edit(copy);
  return copy;
}

describe("storedResources", () => {
  it("finds the resource a 201 creates, with every success example of it once, by the property the service assigns", () => {
    const [resource, ...others] = storedResources(spec);
    expect(others).toEqual([]);
    expect(resource?.name).toMatch(/^#\/components\/schemas\//);
    const schema = deref<JsonObject>(spec, { $ref: resource?.name });
    expect(schema.required).toContain(resource?.idProperty);
    const id = resource?.idProperty ?? "";
    const ids = resource?.examples.map((example) => example[id]) ?? [];
    expect(new Set(ids).size).toBe(ids.length);
    // The list's, the created one's and the one read by id: every example is among them.
    for (const example of successExamples(spec)) {
      const found = resource?.examples.find((e) => e[id] === (example as JsonObject)[id]);
      expect(found, JSON.stringify(example)).toBeDefined();
    }
    expect(resource?.examples.length).toBeGreaterThan(1);
  });

  it("keeps the first example of an id seen twice, in spec order", () => {
    const [resource] = storedResources(spec);
    const id = resource?.idProperty ?? "";
    const twice = edited((copy) => {
      const created = copy.paths["/pets"].post.responses["201"].content["application/json"];
      created.examples.second = { value: { ...resource?.examples[0], name: "Other" } };
    });
    const [again] = storedResources(twice);
    expect(again?.examples.find((e) => e[id] === resource?.examples[0]?.[id])).toEqual(
      resource?.examples[0],
    );
  });

  it("finds none when no operation answers 201", () => {
    const none = edited((copy) => {
      copy.paths["/pets"].post.responses["200"] = copy.paths["/pets"].post.responses["201"];
      delete copy.paths["/pets"].post.responses["201"];
    });
    expect(storedResources(none)).toEqual([]);
  });

  it("names the creating operation when it cannot tell which property the service assigns", () => {
    const unclear = edited((copy) => {
      const pet = copy.components.schemas.Pet;
      pet.properties.createdAt = { type: "string" };
      pet.required = [...pet.required, "createdAt"];
    });
    expect(() => storedResources(unclear)).toThrow(/^createPet: its 201 should require one/);
  });
});
