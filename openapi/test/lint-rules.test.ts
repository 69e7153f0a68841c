// Proves each assertion rule of redocly.yaml (the `rule/...` ones and the recommended rules this
// project relies on) and spec-facts/server-statuses (every status the server can send is declared,
// the report saying why): a copy of the real spec with one promise broken must make `redocly lint`
// fail naming that rule, and the real spec must pass. The spec-facts rules that compare a fact's
// copies have their own suite (spec-facts-rules.test.ts).
import { afterAll, describe, expect, it } from "vitest";
import { lintScratch, mutated, original, reportsOf } from "./lint.js";
import type { Json } from "./spec.js";

const scratch = lintScratch();
afterAll(() => scratch.remove());

const listPets = (spec: Json) => spec.paths["/pets"].get;
const getPet = (spec: Json) => spec.paths["/pets/{petId}"].get;
const createPet = (spec: Json) => spec.paths["/pets"].post;

const statuses = "spec-facts/server-statuses";
const missing: [status: string, operationId: string, op: (spec: Json) => Json][] = [
  ["400", "listPets", listPets],
  ["401", "listPets", listPets],
  ["429", "listPets", listPets],
  ["500", "listPets", listPets],
  ["503", "getPet", getPet],
  ["410", "getPet", getPet],
  ["413", "createPet", createPet],
  ["415", "createPet", createPet],
];

const breakages: [rule: string, why: string, edit: (spec: Json) => void][] = [
  [
    "spec-facts/stored-strings",
    "an optional string added to NewPet without a pattern refusing U+0000",
    (s) => {
      for (const schema of ["NewPet", "Pet"]) {
        s.components.schemas[schema].properties.color = { type: "string", maxLength: 30 };
      }
    },
  ],
  [
    "spec-facts/rate-limit-headers",
    "a 200 without X-RateLimit-Remaining",
    (s) => {
      delete listPets(s).responses["200"].headers["X-RateLimit-Remaining"];
    },
  ],
  [
    "spec-facts/rate-limit-headers",
    "a 200 without the IETF RateLimit field",
    (s) => {
      delete listPets(s).responses["200"].headers.RateLimit;
    },
  ],
  [
    "rule/response-declares-headers",
    "a response without headers at all",
    (s) => {
      delete s.components.responses.Unauthorized.headers;
    },
  ],
  [
    "spec-facts/rate-limit-headers",
    "a 429 without Retry-After",
    (s) => {
      delete s.components.responses.TooManyRequests.headers["Retry-After"];
    },
  ],
  [
    "rule/response-declares-request-id",
    "a 200 without X-Request-Id",
    (s) => {
      delete listPets(s).responses["200"].headers["X-Request-Id"];
    },
  ],
  [
    "rule/deprecated-operation-declares-sunset",
    "getPet's 200 without Sunset",
    (s) => {
      delete getPet(s).responses["200"].headers.Sunset;
    },
  ],
  [
    "rule/deprecated-operation-declares-sunset",
    "getPet's 200 without Deprecation",
    (s) => {
      delete getPet(s).responses["200"].headers.Deprecation;
    },
  ],
  [
    "rule/deprecated-operation-declares-x-sunset",
    "getPet without x-sunset",
    (s) => {
      delete getPet(s)["x-sunset"];
    },
  ],
  [
    "rule/deprecated-operation-declares-x-sunset",
    "getPet without x-deprecated-since",
    (s) => {
      delete getPet(s)["x-deprecated-since"];
    },
  ],
  [
    "rule/replaced-operation-declares-link",
    "getPet's 200 without Link",
    (s) => {
      delete getPet(s).responses["200"].headers.Link;
    },
  ],
  [
    "rule/operation-has-metadata",
    "createPet without operationId",
    (s) => {
      delete s.paths["/pets"].post.operationId;
    },
  ],
  [
    "rule/operation-has-metadata",
    "listPets without summary",
    (s) => {
      delete listPets(s).summary;
    },
  ],
  [
    "rule/operation-has-metadata",
    "listPets without a tag",
    (s) => {
      delete listPets(s).tags;
    },
  ],
  [
    "rule/media-type-has-named-examples",
    "a response body without examples",
    (s) => {
      delete listPets(s).responses["200"].content["application/json"].examples;
    },
  ],
  [
    "rule/parameter-has-example",
    "a parameter without examples",
    (s) => {
      delete s.components.parameters.Limit.examples;
    },
  ],
  [
    "no-invalid-media-type-examples",
    "an example that breaks its schema",
    (s) => {
      s.paths["/pets"].post.requestBody.content["application/json"].examples.dog.value.status =
        "lost";
    },
  ],
  [
    "no-invalid-media-type-examples",
    "an example with an undeclared property",
    (s) => {
      listPets(s).responses["200"].content["application/json"].examples.threePets.value[0].colour =
        "red";
    },
  ],
];

describe("redocly lint rules", () => {
  it("the real spec passes with zero problems", async () => {
    const result = await scratch.lint("real", original);
    expect(result.output).toContain("Your API description is valid");
    expect(result.output).not.toMatch(/\d+:\d+\s+(warning|error)/);
    expect(result.ok).toBe(true);
  });

  it.concurrent.each(breakages)("%s fails on %s", async (rule, why, edit) => {
    const result = await scratch.lint(why, mutated(edit));
    expect(result.ok).toBe(false);
    expect(result.output).toContain(rule);
  });

  it.concurrent.each(missing)(`${statuses} fails on a missing %s (%s)`, async (status, id, op) => {
    const result = await scratch.lint(
      `no-${status}`,
      mutated((s) => delete op(s).responses[status]),
    );
    expect(result.ok).toBe(false);
    const reports = reportsOf(result.output, statuses);
    expect(reports, result.output).toHaveLength(1);
    expect(reports[0]).toMatch(
      new RegExp(`${id} \\(openapi\\.yaml:\\d+\\) must declare a ${status} response, because `),
    );
  });

  it.concurrent(`${statuses} fails on a new operation without parameters that has no 400`, async () => {
    const source = mutated((s) => {
      const { parameters: _, ...op } = structuredClone(listPets(s));
      delete op.responses["400"];
      s.paths["/categories"] = { get: { ...op, operationId: "listCategories" } };
    });
    const reports = reportsOf((await scratch.lint("categories", source)).output, statuses);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain("listCategories");
    expect(reports[0]).toContain("an unknown query parameter is refused with 400");
  });
});
