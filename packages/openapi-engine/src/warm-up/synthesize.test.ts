import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { synthesizeRequest, synthesizeValue, withNumberExamples } from "./synthesize.js";

// Full mode: `date` checks the day exists, `time` and `date-time` their offsets.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv, { mode: "full" });

// A fixture contract: every schema below is one the synthesized value must satisfy.
const spec = {
  openapi: "3.1.1",
  info: { title: "fixture", version: "1" },
  paths: {},
  components: {
    schemas: {
      Tag: { type: "string", pattern: "^[a-z]{3,5}$" },
      Item: {
        type: "object",
        required: ["id", "name", "tags", "size"],
        properties: {
          id: { type: "string", format: "uuid", readOnly: true },
          name: { type: "string", minLength: 12, maxLength: 20 },
          tags: { type: "array", items: { $ref: "#/components/schemas/Tag" }, minItems: 2 },
          size: { type: "integer", minimum: 7, maximum: 40, multipleOf: 5 },
          note: { type: "string" },
        },
        additionalProperties: false,
      },
    },
  },
};

const formats = [
  "date",
  "date-time",
  "time",
  "uuid",
  "email",
  "uri",
  "uri-reference",
  "ipv4",
  "ipv6",
  "hostname",
  "json-pointer",
  "relative-json-pointer",
  "regex",
];

const schemas: Record<string, unknown> = {
  ...Object.fromEntries(formats.map((format) => [`format ${format}`, { type: "string", format }])),
  "string bounds": { type: "string", minLength: 30, maxLength: 31 },
  pattern: { type: "string", pattern: "^[A-Z]{2}-[0-9]{4}$" },
  "integer bounds": { type: "integer", minimum: 10, maximum: 12 },
  "exclusive bounds": { type: "number", exclusiveMinimum: 1.5, exclusiveMaximum: 2 },
  "integer exclusive bounds": { type: "integer", exclusiveMinimum: 1.5, exclusiveMaximum: 3 },
  "negative maximum": { type: "integer", maximum: -10, multipleOf: 3 },
  "multipleOf above the minimum": { type: "integer", minimum: 7, multipleOf: 5 },
  "multipleOf above an exclusive minimum": { type: "integer", exclusiveMinimum: 10, multipleOf: 5 },
  enum: { type: "string", enum: ["b", "c"] },
  const: { const: 42 },
  default: { type: "integer", default: 3, minimum: 1 },
  "schema examples": { type: "string", examples: ["2024-02-29"], format: "date" },
  "oneOf with distinct branches": { oneOf: [{ type: "string" }, { type: "integer" }] },
  anyOf: { anyOf: [{ type: "boolean" }, { type: "null" }] },
  allOf: {
    allOf: [
      { type: "object", required: ["a"], properties: { a: { type: "integer", minimum: 2 } } },
      { type: "object", required: ["b"], properties: { b: { type: "string", format: "date" } } },
    ],
  },
  "nullable type list": { type: ["string", "null"], minLength: 2 },
  "array of objects": {
    type: "array",
    minItems: 1,
    items: { $ref: "#/components/schemas/Item" },
  },
  "$ref object, required only, readOnly left out": { $ref: "#/components/schemas/Item" },
};

/**
 * The schema as a request sees it: a readOnly property is not required there (OpenAPI's
 * readOnly: "SHOULD NOT be sent as part of the request"); the engine's validator does the same.
 */
function requestView(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(requestView);
  if (typeof node !== "object" || node === null) return node;
  const copy = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, requestView(value)]),
  ) as Record<string, unknown>;
  const properties = copy.properties as Record<string, { readOnly?: boolean }> | undefined;
  if (Array.isArray(copy.required) && properties) {
    copy.required = copy.required.filter((name) => properties[name]?.readOnly !== true);
  }
  return copy;
}

function validator(schema: unknown) {
  return ajv.compile(requestView({ ...(schema as object), components: spec.components }) as object);
}

describe("synthesizeValue", () => {
  for (const [name, schema] of Object.entries(schemas)) {
    it(`is valid under Ajv with full formats: ${name}`, () => {
      // $refs point into the fixture's components: validate with them alongside.
      const value = synthesizeValue(spec, schema);
      const validate = validator(schema);
      expect(validate(value), `${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`).toBe(
        true,
      );
    });
  }
  it("builds required properties only, and never readOnly ones", () => {
    const value = synthesizeValue(spec, { $ref: "#/components/schemas/Item" }) as Record<
      string,
      unknown
    >;
    expect(Object.keys(value).sort()).toEqual(["name", "size", "tags"]);
  });
  it("takes the schema's own values first: const, examples, enum, default", () => {
    expect(synthesizeValue(spec, { type: "string", const: "x", examples: ["y"] })).toBe("x");
    expect(synthesizeValue(spec, { type: "string", examples: ["y"], enum: ["z"] })).toBe("y");
    expect(synthesizeValue(spec, { type: "string", enum: ["z"], default: "d" })).toBe("z");
    expect(synthesizeValue(spec, { type: "string", default: "d" })).toBe("d");
    expect(synthesizeValue(spec, { type: "string", example: "e" })).toBe("e");
  });
  it("gives a multipleOf its smallest multiple within bounds, leaving the input alone", () => {
    const schema = { type: "integer", minimum: 7, multipleOf: 5 };
    expect(withNumberExamples(schema)).toEqual({ ...schema, example: 10 });
    expect(schema).toEqual({ type: "integer", minimum: 7, multipleOf: 5 });
    expect(
      withNumberExamples({ type: "number", exclusiveMinimum: 1, exclusiveMaximum: 2 }),
    ).toMatchObject({ example: 1.5 });
    expect(withNumberExamples({ type: "integer", exclusiveMaximum: -3 })).toMatchObject({
      example: -4,
    });
    expect(
      withNumberExamples({ type: "integer", minimum: 1, maximum: 4, multipleOf: 5 }),
    ).not.toHaveProperty("example");
    expect(
      withNumberExamples({ type: "integer", minimum: 1, multipleOf: 5, default: 5 }),
    ).not.toHaveProperty("example");
  });
});

describe("synthesizeRequest", () => {
  const operation = {
    operationId: "createThing",
    method: "POST",
    path: "/groups/{groupId}/things/{day}",
    parameters: [
      { name: "groupId", in: "path", required: true, schema: { type: "string", format: "uuid" } },
      {
        name: "day",
        in: "path",
        required: true,
        examples: { first: { value: "2024-01-31" } },
        schema: { type: "string", format: "date" },
      },
      { name: "limit", in: "query", required: true, schema: { type: "integer", default: 20 } },
      {
        name: "ids",
        in: "query",
        required: true,
        schema: { type: "array", minItems: 2, items: { type: "integer", enum: [4] } },
      },
      { name: "filter", in: "query", required: true, style: "deepObject", example: { a: "1" } },
      { name: "optional", in: "query", schema: { type: "string" } },
      { name: "X-Trace", in: "header", required: true, schema: { type: "string", const: "t" } },
      { name: "session", in: "cookie", required: true, example: "s 1" },
    ],
    requestBody: {
      content: {
        "text/plain": { schema: { type: "string" } },
        "application/json": { schema: { $ref: "#/components/schemas/Item" } },
      },
    },
  };
  it("fills path, query, header and cookie parameters, example first, by style", () => {
    const request = synthesizeRequest(spec, operation);
    const [path, search] = request.path.split("?") as [string, string];
    expect(path).toMatch(/^\/groups\/[0-9a-f-]{36}\/things\/2024-01-31$/);
    expect(ajv.validate({ type: "string", format: "uuid" }, path.split("/")[2])).toBe(true);
    expect([...new URLSearchParams(search)]).toEqual([
      ["limit", "20"],
      ["ids", "4"],
      ["ids", "4"],
      ["filter[a]", "1"],
    ]);
    expect(request.headers).toMatchObject({ "x-trace": "t", cookie: "session=s%201" });
  });
  it("sends a valid JSON body when JSON is declared, whatever comes first", () => {
    const request = synthesizeRequest(spec, operation);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.bodyValue?.mediaType).toBe("application/json");
    const validate = validator({ $ref: "#/components/schemas/Item" });
    expect(validate(JSON.parse(String(request.body)))).toBe(true);
  });
  it("uses the media type's example, and serializes form, multipart, text and binary", () => {
    const body = (content: Record<string, unknown>) =>
      synthesizeRequest(spec, { ...operation, parameters: [], requestBody: { content } });
    expect(body({ "application/json": { example: { x: 1 } } }).body).toBe('{"x":1}');
    const form = body({
      "application/x-www-form-urlencoded": {
        schema: {
          type: "object",
          required: ["a", "b"],
          properties: {
            a: { type: "string", const: "x y" },
            b: { type: "array", items: { const: 1 }, minItems: 2 },
          },
        },
      },
    });
    expect(form.body).toBe("a=x+y&b=1&b=1");
    const multipart = body({
      "multipart/form-data": { examples: { one: { value: { name: "n" } } } },
    });
    expect(multipart.headers["content-type"]).toBe(
      "multipart/form-data; boundary=synthesized-createThing",
    );
    expect(multipart.body).toBe(
      '--synthesized-createThing\r\nContent-Disposition: form-data; name="name"\r\n\r\nn\r\n--synthesized-createThing--\r\n',
    );
    const textBody = body({ "text/*": { schema: { type: "string", minLength: 3 } } });
    expect(textBody.headers["content-type"]).toBe("text/plain");
    expect(String(textBody.body).length).toBeGreaterThanOrEqual(3);
    const binary = body({ "application/octet-stream": {} });
    expect(Buffer.isBuffer(binary.body)).toBe(true);
  });
  it("sends no body and no Content-Type for an operation without one", () => {
    const request = synthesizeRequest(spec, {
      ...operation,
      parameters: [],
      requestBody: undefined,
    });
    expect(request.body).toBe(undefined);
    expect(request.headers["content-type"]).toBe(undefined);
    expect(request.path).toBe("/groups/{groupId}/things/{day}");
  });
});
