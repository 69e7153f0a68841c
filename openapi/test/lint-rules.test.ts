// Proves each custom lint rule in redocly.yaml: a copy of the real spec with one promise broken
// must make `redocly lint` fail naming that rule, and the real spec must pass.
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { Json } from "./spec.js";

const run = promisify(execFile);
const here = new URL("..", import.meta.url).pathname;
const redocly = join(here, "node_modules/.bin/redocly");
const original = readFileSync(join(here, "openapi.yaml"), "utf8");
const scratch = mkdtempSync(join(tmpdir(), "animal-store-lint-"));
copyFileSync(join(here, "redocly.yaml"), join(scratch, "redocly.yaml"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Lints `source` as openapi.yaml with the project's redocly.yaml; returns exit status and output. */
async function lint(name: string, source: string): Promise<{ ok: boolean; output: string }> {
  const dir = mkdtempSync(join(scratch, `${name}-`));
  copyFileSync(join(scratch, "redocly.yaml"), join(dir, "redocly.yaml"));
  writeFileSync(join(dir, "openapi.yaml"), source);
  try {
    const { stdout, stderr } = await run(redocly, ["lint", "openapi.yaml", "--format=stylish"], {
      cwd: dir,
      env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string };
    return { ok: false, output: failed.stdout + failed.stderr };
  }
}

/** The real spec with one edit applied. */
function mutated(edit: (spec: Json) => void): string {
  const spec = parse(original);
  edit(spec);
  return stringify(spec);
}

const listPets = (spec: Json) => spec.paths["/pets"].get;
const getPet = (spec: Json) => spec.paths["/pets/{petId}"].get;

const breakages: [rule: string, why: string, edit: (spec: Json) => void][] = [
  [
    "rule/operation-declares-401-and-429",
    "listPets without 429",
    (s) => {
      delete listPets(s).responses["429"];
    },
  ],
  [
    "rule/operation-declares-401-and-429",
    "listPets without 401",
    (s) => {
      delete listPets(s).responses["401"];
    },
  ],
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
    "rule/operation-declares-500-and-503",
    "listPets without its 500",
    (s) => {
      delete listPets(s).responses["500"];
    },
  ],
  [
    "rule/operation-declares-500-and-503",
    "getPet without its 503",
    (s) => {
      delete getPet(s).responses["503"];
    },
  ],
  [
    "rule/operation-with-body-declares-413-and-415",
    "createPet without its 413",
    (s) => {
      delete s.paths["/pets"].post.responses["413"];
    },
  ],
  [
    "rule/operation-with-body-declares-413-and-415",
    "createPet without its 415",
    (s) => {
      delete s.paths["/pets"].post.responses["415"];
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
    "rule/sunset-operation-declares-410",
    "getPet without its 410",
    (s) => {
      delete getPet(s).responses["410"];
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
    const result = await lint("real", original);
    expect(result.output).toContain("Your API description is valid");
    expect(result.output).not.toMatch(/\d+:\d+\s+(warning|error)/);
    expect(result.ok).toBe(true);
  });

  it.concurrent.each(breakages)("%s fails on %s", async (rule, why, edit) => {
    const result = await lint(why.replace(/\W+/g, "-"), mutated(edit));
    expect(result.ok).toBe(false);
    expect(result.output).toContain(rule);
  });
});
