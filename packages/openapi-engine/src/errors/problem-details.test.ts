import { type DocumentedResponse, documentedResponses } from "@animal-store/openapi";
import { describe, expect, it } from "vitest";
import { ENGINE_ERROR_STATUS, engineErrors } from "../errors.js";
import { compileErrorShape, PROBLEM_JSON, problemDetails } from "./problem-details.js";

// A fixture contract's components: an error schema that lists codes, one that does not, and one
// the engine's body does not fit.
const spec = {
  components: {
    schemas: {
      ListedError: {
        type: "object",
        required: ["code", "message"],
        properties: {
          code: { type: "string", enum: ["validation_failed", "malformed_json", "not_found"] },
          message: { type: "string" },
          status: { type: "integer" },
        },
      },
      OpenError: {
        type: "object",
        required: ["code", "message"],
        properties: { code: { type: "string" }, message: { type: "string" } },
      },
      OtherError: {
        type: "object",
        required: ["error"],
        properties: { error: { type: "string" } },
      },
    },
    responses: {
      NotFound: {
        description: "nothing",
        content: { "application/json": { schema: { $ref: "#/components/schemas/OpenError" } } },
      },
    },
  },
};

const json = (ref: string) => ({
  description: "error",
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
});

describe("problemDetails (RFC 9457)", () => {
  it("renders type, title, status, detail, instance, the code and the validation errors", () => {
    const error = engineErrors.validationFailed("query/limit must be <= 100");
    expect(
      problemDetails(error, {
        instance: "/things?limit=101",
        errors: [{ path: "query/limit", message: "must be <= 100" }],
      }),
    ).toEqual({
      type: "about:blank",
      title: "Bad Request",
      status: 400,
      detail: "query/limit must be <= 100",
      instance: "/things?limit=101",
      code: "validation_failed",
      errors: [{ path: "query/limit", message: "must be <= 100" }],
    });
  });
  it("leaves out instance and errors when not given; a type base names the code", () => {
    const problem = problemDetails(engineErrors.noSuchPath("/x"), {
      typeBase: "https://example.com/problems/",
    });
    expect(problem).toEqual({
      type: "https://example.com/problems/not_found",
      title: "Not Found",
      status: 404,
      detail: "No such path: /x",
      code: "not_found",
    });
  });
});

/** The responses of one operation, as `documentedResponses` gives them. */
function responses(declared: Record<string, unknown>): DocumentedResponse[] {
  return documentedResponses(spec as never, { operation: { responses: declared } });
}

describe("compileErrorShape", () => {
  it("answers problem+json where the contract declares no JSON error schema", () => {
    const { shape, mismatch } = compileErrorShape(spec as never, [
      {
        where: "a",
        responses: responses({ "200": { description: "ok" }, "404": { description: "none" } }),
      },
      {
        where: "b",
        responses: responses({
          "4XX": { description: "p", content: { [PROBLEM_JSON]: { schema: {} } } },
        }),
      },
    ]);
    expect(shape.kind).toBe("problem");
    expect(mismatch).toBeUndefined();
    expect(shape.contentType).toBe(PROBLEM_JSON);
    expect(JSON.parse(shape.render(engineErrors.noSuchPath("/y"), { instance: "/y" }))).toEqual({
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "No such path: /y",
      code: "not_found",
      instance: "/y",
    });
  });
  it("uses the first JSON error schema of the contract's operations, $refs followed", () => {
    const { shape } = compileErrorShape(spec as never, [
      { where: "a", responses: responses({ "200": { description: "ok" } }) },
      { where: "b", responses: responses({ "4XX": { $ref: "#/components/responses/NotFound" } }) },
    ]);
    expect(shape.kind).toBe("contract");
    expect(shape.contentType).toBe("application/json; charset=utf-8");
    expect(shape.render(engineErrors.validationFailed("bad"))).toBe(
      JSON.stringify({ code: "validation_failed", message: "bad", status: 400 }),
    );
  });
  it("answers problem+json, and says so, where the engine's body does not fit the JSON schema", () => {
    const { shape, mismatch } = compileErrorShape(spec as never, [
      { where: "getThing", responses: responses({ "4XX": json("OtherError") }) },
    ]);
    expect(shape.kind).toBe("problem");
    expect(mismatch).toBe(
      "getThing: the 4XX application/json schema does not fit the engine's error body (code, message, status): the engine answers its errors as application/problem+json",
    );
  });
  it("renders every code of the engine's catalogue as problem+json", () => {
    const { shape } = compileErrorShape(spec as never, []);
    for (const [code, status] of Object.entries(ENGINE_ERROR_STATUS)) {
      const error = { code, status, message: "m" };
      expect(JSON.parse(shape.render(error))).toMatchObject({ code, status, detail: "m" });
    }
  });
});
