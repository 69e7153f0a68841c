import { describe, expect, it } from "vitest";
import { ENGINE_ERROR_STATUS, engineErrors } from "../errors.js";
import { compileErrorShapes, PROBLEM_JSON, problemDetails } from "./problem-details.js";

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

describe("compileErrorShapes", () => {
  const codes = {
    validation_failed: 400,
    malformed_json: 400,
    not_found: 404,
    gone: 410,
    internal_error: 500,
  };
  it("answers problem+json where the contract declares no error schema", () => {
    const shapes = compileErrorShapes(
      spec,
      { "200": { description: "ok" }, "404": { description: "no content" } },
      codes,
    );
    for (const status of [400, 404, 410, 500])
      expect(shapes.forStatus(status).kind).toBe("problem");
    const rendered = shapes
      .forStatus(404)
      .render(engineErrors.noSuchPath("/y"), { instance: "/y" });
    expect(rendered.contentType).toBe(PROBLEM_JSON);
    expect(JSON.parse(rendered.text)).toMatchObject({
      status: 404,
      code: "not_found",
      instance: "/y",
    });
  });
  it("answers problem+json where the contract itself declares problem+json", () => {
    const shapes = compileErrorShapes(
      spec,
      { "4XX": { description: "p", content: { [PROBLEM_JSON]: { schema: {} } } } },
      codes,
    );
    expect(shapes.forStatus(400).kind).toBe("problem");
  });
  it("uses the contract's JSON schema: exact status, then range, then default", () => {
    const shapes = compileErrorShapes(
      spec,
      {
        "400": json("ListedError"),
        "4XX": { $ref: "#/components/responses/NotFound" },
        default: json("OpenError"),
      },
      { validation_failed: 400, not_found: 404, internal_error: 500 },
    );
    expect(shapes.forStatus(400).kind).toBe("contract");
    expect(shapes.forStatus(404).kind).toBe("contract");
    expect(shapes.forStatus(500).kind).toBe("contract");
    const rendered = shapes.forStatus(400).render(engineErrors.validationFailed("bad"));
    expect(rendered).toEqual({
      contentType: "application/json; charset=utf-8",
      text: JSON.stringify({ code: "validation_failed", message: "bad", status: 400 }),
    });
  });
  it("checks the engine's codes only where the contract's schema lists codes", () => {
    expect(() =>
      compileErrorShapes(spec, { "4XX": json("ListedError") }, codes, "getThing"),
    ).toThrow(
      "getThing: the 4XX application/json error schema's code enum lacks gone, which the server answers with",
    );
    expect(() => compileErrorShapes(spec, { "4XX": json("OpenError") }, codes)).not.toThrow();
  });
  it("answers problem+json, and says so, where the engine's body does not fit the declared schema", () => {
    const shapes = compileErrorShapes(spec, { "4XX": json("OtherError") }, codes, "getThing");
    expect(shapes.forStatus(400).kind).toBe("problem");
    expect(shapes.mismatches).toEqual([
      "getThing: the 4XX application/json schema does not fit the engine's error body (code, message, status)",
    ]);
  });
  it("covers every code of the engine's catalogue", () => {
    const shapes = compileErrorShapes(spec, {}, ENGINE_ERROR_STATUS);
    for (const status of Object.values(ENGINE_ERROR_STATUS)) {
      expect(shapes.forStatus(status).kind).toBe("problem");
    }
  });
});
