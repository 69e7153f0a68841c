// Static checks of openapi/arazzo/*.arazzo.yaml that `redocly lint` does not make: every step names
// an operation the contract has, and together the workflows still exercise what the issue asks
// (create → get → list, paging and its bad cursors, auth failures, validation errors, a 429), so
// coverage cannot silently shrink.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadBundledSpec, operationPagination, specOperations } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { arazzoDir } from "../src/contract-paths.js";

interface Step {
  stepId: string;
  operationId?: string;
  successCriteria?: { condition: string; type?: string }[];
}
interface ArazzoFile {
  sourceDescriptions: { name: string; url: string; type: string }[];
  workflows: { workflowId: string; steps: Step[] }[];
}

const files = readdirSync(arazzoDir()).filter((name) => name.endsWith(".arazzo.yaml"));
const documents = files.map((name) => ({
  name,
  doc: parse(readFileSync(join(arazzoDir(), name), "utf8")) as ArazzoFile,
}));
const contractOperations = new Set(
  specOperations(loadBundledSpec().spec).map((op) => op.operationId),
);

/** `operationId status` for every step whose criteria pin a status code. */
function exercised(): Set<string> {
  const pairs = new Set<string>();
  for (const { doc } of documents) {
    for (const step of doc.workflows.flatMap((w) => w.steps)) {
      const operation = step.operationId?.split(".").pop();
      for (const criterion of step.successCriteria ?? []) {
        const status = /^\$statusCode == (\d{3})$/.exec(criterion.condition)?.[1];
        if (status && operation) pairs.add(`${operation} ${status}`);
      }
    }
  }
  return pairs;
}

describe("Arazzo workflows", () => {
  it("exist: pets, paging, auth failures, validation errors, rate limit", () => {
    expect(files.sort()).toEqual(
      expect.arrayContaining([
        "auth-failures.arazzo.yaml",
        "paging.arazzo.yaml",
        "pets.arazzo.yaml",
        "rate-limit.arazzo.yaml",
        "validation-errors.arazzo.yaml",
      ]),
    );
  });

  it.each(files)("%s uses the contract as its only source", (name) => {
    const { doc } = documents.find((d) => d.name === name) ?? { doc: undefined };
    expect(doc?.sourceDescriptions).toEqual([
      { name: "animalStore", url: "../openapi.yaml", type: "openapi" },
    ]);
  });

  it("every step calls an operation of the contract, by operationId", () => {
    for (const { name, doc } of documents) {
      for (const step of doc.workflows.flatMap((w) => w.steps)) {
        expect(step.operationId, `${name} ${step.stepId}`).toMatch(
          /^\$sourceDescriptions\.animalStore\./,
        );
        expect(contractOperations, `${name} ${step.stepId}`).toContain(
          step.operationId?.split(".").pop(),
        );
      }
    }
  });

  it("pin every bad-cursor code of the paged operation's 400 examples", () => {
    const spec = loadBundledSpec().spec;
    const paged = specOperations(spec).find((op) => operationPagination(spec, op));
    if (!paged) throw new Error("the contract has no operation with x-pagination");
    const codes = Object.values(operationPagination(spec, paged)?.codes ?? {});
    expect(codes.length).toBeGreaterThan(0);
    const pinned = documents.flatMap(({ doc }) =>
      doc.workflows
        .flatMap((w) => w.steps)
        .filter((step) => step.operationId?.endsWith(`.${paged.operationId}`))
        .flatMap((step) => (step.successCriteria ?? []).map((c) => c.condition)),
    );
    for (const code of codes) expect(pinned).toContain(`$response.body#/code == '${code}'`);
    expect(pinned.some((condition) => /rel="next"/.test(condition))).toBe(true);
  });

  it("together they pin the statuses the issue names for each operation", () => {
    const required = [
      "createPet 201",
      "getPet 200",
      "listPets 200",
      "listPets 401",
      "createPet 401",
      "getPet 401",
      "createPet 400",
      "listPets 400",
      "getPet 400",
      "getPet 404",
      "listPets 429",
    ];
    expect([...exercised()]).toEqual(expect.arrayContaining(required));
  });
});
