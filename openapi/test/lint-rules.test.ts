// Proves each assertion rule of redocly.yaml (the `rule/...` ones and the recommended rules this
// project relies on): a copy of the real spec with one promise broken must make `redocly lint`
// fail naming that rule, and the real spec must pass. The spec-facts plugin's rules have their
// own suite (spec-facts-rules.test.ts).
import { afterAll, describe, expect, it } from "vitest";
import { lintScratch, mutated, original } from "./lint.js";
import type { Json } from "./spec.js";

const scratch = lintScratch();
afterAll(() => scratch.remove());

const listPets = (spec: Json) => spec.paths["/pets"].get;
const getPet = (spec: Json) => spec.paths["/pets/{petId}"].get;

const breakages: [rule: string, why: string, edit: (spec: Json) => void][] = [
  [
    "rule/response-declares-rate-limit-headers",
    "a 200 without X-RateLimit-Remaining",
    (s) => {
      delete listPets(s).responses["200"].headers["X-RateLimit-Remaining"];
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
    "rule/429-declares-retry-after",
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
});
