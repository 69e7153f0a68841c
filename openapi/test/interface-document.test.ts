// The one deliberate restatement: what the interface document (the Animal Store Service Interface
// Specification, the only document the contract must honour) states, checked against
// openapi.yaml. An edit that departs from the document fails here, in one message naming the
// document's statement and the spec's line. What the document leaves open (name rules, error
// codes, the ban, the body limit, the plan of callers without a key, paging, other resources) is
// never pinned here; everything else in the repository reads the spec instead.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { basePathOf } from "../src/extensions.js";
import { specOperations } from "../src/spec-operations.js";
import { agrees, at, jsonSchema, operationAt, parameterOf, schemaRef, source } from "./source.js";
import type { Json } from "./spec.js";

describe("the interface document: versioning", () => {
  it("pins version 1.0.0 as the released baseline: the spec's version is 1.0.0 or later", () => {
    const baseline = new URL("../released/openapi-1.0.0.json", import.meta.url);
    const released = JSON.parse(readFileSync(baseline, "utf8")).info.version;
    const [major = 0] = String(source.info.version).split(".").map(Number);
    const statement = "The description of the interface itself has version 1.0.0.";
    agrees(statement, ["info", "version"], [released, major >= 1], ["1.0.0", true]);
  });
  it("pins the base path /v1", () => {
    const statement = "Both addresses end with the path segment /v1.";
    agrees(statement, ["servers", 0, "url"], basePathOf(source), "/v1");
  });
});

describe("the interface document: limits", () => {
  it.each([
    ["Free", 60, 1000],
    ["Pro", 300, 10000],
    ["Business", 1000, 100000],
    ["Enterprise", "custom", "custom"],
  ])("pins the %s plan: %s a minute, %s a day", (plan, perMinute, perDay) => {
    const plans = source.info["x-rate-limit-plans"] as Json;
    const name = Object.keys(plans ?? {}).find((key) => key.toLowerCase() === plan.toLowerCase());
    const actual = name
      ? { perMinute: plans[name].perMinute, perDay: plans[name].perDay }
      : undefined;
    const row = `| ${plan} | ${perMinute} | ${perDay} | (requests per minute, per day)`;
    agrees(row, ["info", "x-rate-limit-plans", name ?? plan.toLowerCase()], actual, {
      perMinute,
      perDay,
    });
  });
  it("pins listPets' limit: an optional query integer from 1 to 100, default 20", () => {
    const limit = parameterOf("listPets", "limit");
    const schema = limit && at([...limit.path, "schema"]);
    const { type, minimum, maximum, default: fallback } = schema?.node ?? {};
    agrees(
      "limit: integer, not required, minimum 1, maximum 100, default 20 (query of listPets)",
      schema?.path ?? operationAt("listPets"),
      {
        in: limit?.node.in,
        required: limit?.node.required ?? false,
        type,
        minimum,
        maximum,
        default: fallback,
      },
      { in: "query", required: false, type: "integer", minimum: 1, maximum: 100, default: 20 },
    );
  });
});

describe("the interface document: resources", () => {
  const schemas = ["components", "schemas"];
  it("pins PetStatus: exactly available, pending, sold", () => {
    agrees(
      "PetStatus allowed values, exactly: available, pending, sold.",
      [...schemas, "PetStatus", "enum"],
      source.components?.schemas && at([...schemas, "PetStatus"])?.node.enum,
      ["available", "pending", "sold"],
    );
  });
  it("pins NewPet: name and categoryId (int64) required, status (PetStatus) optional without default", () => {
    const newPet = at([...schemas, "NewPet"])?.node ?? {};
    const property = (name: string) => at([...schemas, "NewPet", "properties", name])?.node ?? {};
    const actual = {
      required: [...(newPet.required ?? [])].sort(),
      name: property("name").type,
      categoryId: [property("categoryId").type, property("categoryId").format],
      status: newPet.properties?.status,
      statusDefault: property("status").default,
    };
    agrees(
      "NewPet: name string required; categoryId integer int64 required; status enum PetStatus, not required, no default",
      [...schemas, "NewPet"],
      actual,
      {
        required: ["categoryId", "name"],
        name: "string",
        categoryId: ["integer", "int64"],
        status: schemaRef("PetStatus"),
        statusDefault: undefined,
      },
    );
  });
  it("pins Pet: the fields of NewPet plus a required int64 id", () => {
    const pet = at([...schemas, "Pet"])?.node ?? {};
    const newPet = at([...schemas, "NewPet"])?.node ?? {};
    const id = at([...schemas, "Pet", "properties", "id"])?.node ?? {};
    const actual = {
      fields: Object.keys(pet.properties ?? {}).sort(),
      required: [...(pet.required ?? [])].sort(),
      id: [id.type, id.format],
    };
    agrees(
      "A Pet has all fields of NewPet, plus id: integer, int64, required.",
      [...schemas, "Pet"],
      actual,
      {
        fields: [...Object.keys(newPet.properties ?? {}), "id"].sort(),
        required: [...(newPet.required ?? []), "id"].sort(),
        id: ["integer", "int64"],
      },
    );
  });
  it("pins Pets: a bare array of Pet", () => {
    const pets = at([...schemas, "Pets"])?.node ?? {};
    agrees(
      "Pets: an array of Pet objects; a list response is this bare array.",
      [...schemas, "Pets"],
      { type: pets.type, items: pets.items },
      { type: "array", items: schemaRef("Pet") },
    );
  });
  it("pins Error: code (string), message (string) and status (integer), all required", () => {
    const property = (name: string) => at([...schemas, "Error", "properties", name])?.node.type;
    const actual = {
      required: [...(at([...schemas, "Error"])?.node.required ?? [])].sort(),
      code: property("code"),
      message: property("message"),
      status: property("status"),
    };
    agrees(
      "Error: code string, message string, status integer; all required.",
      [...schemas, "Error"],
      actual,
      {
        required: ["code", "message", "status"],
        code: "string",
        message: "string",
        status: "integer",
      },
    );
  });
});

/** The document's endpoints: method and path, body, success body, and the statuses it lists (its Errors table's included). */
const endpoints = [
  {
    id: "listPets",
    route: "GET /pets",
    body: undefined,
    success: ["200", "Pets"],
    statuses: ["200", "401", "429"],
  },
  {
    id: "createPet",
    route: "POST /pets",
    body: "NewPet",
    success: ["201", "Pet"],
    statuses: ["201", "400", "401", "429"],
  },
  {
    id: "getPet",
    route: "GET /pets/{petId}",
    body: undefined,
    success: ["200", "Pet"],
    statuses: ["200", "401", "404", "429"],
  },
] as const;

describe("the interface document: endpoints", () => {
  it.each(endpoints)(
    "pins $id: $route, its bodies and the statuses $statuses",
    ({ id, route, body, success, statuses }) => {
      const op = specOperations(source).find((o) => o.operationId === id);
      const path = operationAt(id);
      const requestBody = at([...path, "requestBody"]);
      const actual = {
        route: op && `${op.method} ${op.path}`,
        body: requestBody && [requestBody.node.required, jsonSchema(requestBody.path)],
        success: jsonSchema([...path, "responses", success[0]]),
        missingStatuses: statuses.filter((status) => !op?.statuses.includes(status)),
      };
      const expected = {
        route,
        body: body && [true, schemaRef(body)],
        success: schemaRef(success[1]),
        missingStatuses: [],
      };
      agrees(
        `${id}: ${route}${body ? `, request body (required) ${body}` : ""}; ${success[0]} ${success[1]}; responses ${statuses.join(", ")}`,
        [...path, "responses"],
        actual,
        expected,
      );
    },
  );
  it("pins getPet's petId: a required int64 path parameter", () => {
    const param = parameterOf("getPet", "petId");
    const schema = param && at([...param.path, "schema"]);
    agrees(
      "Path parameter: petId, integer (int64), required.",
      param?.path ?? operationAt("getPet"),
      {
        name: param?.node.name,
        in: param?.node.in,
        required: param?.node.required,
        type: schema?.node.type,
        format: schema?.node.format,
      },
      { name: "petId", in: "path", required: true, type: "integer", format: "int64" },
    );
  });
  it("pins getPet's deprecation: removed on 5 December 2030, replaced by GET /pets with the status filter", () => {
    const op = at(operationAt("getPet"))?.node ?? {};
    agrees(
      "The operation is marked deprecated. It is to be removed on 5 December 2030. The replacement is GET /pets with the status filter.",
      [...operationAt("getPet"), "x-sunset"],
      { deprecated: op.deprecated, sunset: op["x-sunset"], replacement: op["x-replacement"] },
      {
        deprecated: true,
        sunset: "2030-12-05",
        replacement: expect.stringMatching(/^GET \/pets\?status=/),
      },
    );
  });
  it("pins the Error body on every error response of every operation", () => {
    const departing = specOperations(source).flatMap((op) =>
      op.statuses
        .filter(
          (status) =>
            /^[45]/.test(status) &&
            JSON.stringify(jsonSchema([...operationAt(op.operationId), "responses", status])) !==
              JSON.stringify(schemaRef("Error")),
        )
        .map((status) => [op.operationId, status]),
    );
    const [first] = departing;
    const where = first
      ? [...operationAt(String(first[0])), "responses", String(first[1])]
      : ["paths"];
    agrees("All error responses carry the Error body.", where, departing, []);
  });
});

describe("the interface document: authentication", () => {
  it("pins an HTTP bearer credential, required by every operation", () => {
    const schemes = (source.components?.securitySchemes ?? {}) as Json;
    const bearer = Object.keys(schemes).filter(
      (name) => schemes[name].type === "http" && schemes[name].scheme === "bearer",
    );
    const open = specOperations(source)
      .filter(
        (op) =>
          op.security.length === 0 ||
          op.security.some((r) => !Object.keys(r).some((name) => bearer.includes(name))),
      )
      .map((op) => op.operationId);
    agrees(
      "Scheme: HTTP bearer. Every operation requires this credential.",
      open[0] ? operationAt(open[0]) : ["components", "securitySchemes"],
      { bearer: bearer.length > 0, open },
      { bearer: true, open: [] },
    );
  });
});
