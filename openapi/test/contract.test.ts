// Each fact of ../shared/animal-store-interface.md, asserted against the bundled contract.
import { describe, expect, it } from "vitest";
import { deref, type Json, operations, spec } from "./spec.js";

const op = (path: string, method: string) => spec.paths[path][method];
const schema = (name: string) => spec.components.schemas[name];
const responseOf = (path: string, method: string, status: string) =>
  deref(op(path, method).responses[status]);
const JS_SAFE_MAX = Number.MAX_SAFE_INTEGER;

describe("versioning and environments", () => {
  it("is OpenAPI 3.1 describing interface version 1.0.0", () => {
    expect(spec.openapi).toMatch(/^3\.1\./);
    expect(spec.info.version).toBe("1.0.0");
  });
  it("has production and staging servers, both ending with /v1, plus a local one", () => {
    const descriptions = spec.servers.map((s: { description: string }) => s.description);
    expect(descriptions).toEqual(expect.arrayContaining(["Production", "Staging"]));
    for (const server of spec.servers) expect(server.url).toMatch(/\/v1$/);
    expect(spec.servers.some((s: { url: string }) => s.url.startsWith("http://127.0.0.1"))).toBe(
      true,
    );
  });
  it("exposes the three documented operations", () => {
    const ids = operations().map(
      ({ method, path, op }) => `${method.toUpperCase()} ${path} ${op.operationId}`,
    );
    expect(ids).toEqual(
      expect.arrayContaining([
        "GET /pets listPets",
        "POST /pets createPet",
        "GET /pets/{petId} getPet",
      ]),
    );
  });
});

describe("resources", () => {
  it("PetStatus allows exactly available, pending, sold", () => {
    expect(schema("PetStatus").enum).toEqual(["available", "pending", "sold"]);
  });
  it("NewPet requires name and categoryId, has an optional status without default, rejects unknown properties", () => {
    const newPet = schema("NewPet");
    expect(newPet.required.sort()).toEqual(["categoryId", "name"]);
    expect(Object.keys(newPet.properties).sort()).toEqual(["categoryId", "name", "status"]);
    expect(deref(newPet.properties.name).type).toBe("string");
    expect(deref(newPet.properties.categoryId)).toMatchObject({ type: "integer", format: "int64" });
    expect(newPet.properties.status.$ref).toBe("#/components/schemas/PetStatus");
    expect(deref(newPet.properties.status).default).toBeUndefined();
    expect(newPet.additionalProperties).toBe(false);
  });
  it("Pet has every NewPet field plus a required int64 id", () => {
    const pet = schema("Pet");
    expect(Object.keys(pet.properties).sort()).toEqual(["categoryId", "id", "name", "status"]);
    expect(pet.required.sort()).toEqual(["categoryId", "id", "name"]);
    expect(deref(pet.properties.id)).toMatchObject({ type: "integer", format: "int64" });
  });
  it("Pets is a bare array of Pet", () => {
    expect(schema("Pets")).toMatchObject({
      type: "array",
      items: { $ref: "#/components/schemas/Pet" },
    });
  });
  it("Error has code, message and status, all required", () => {
    const error = schema("Error");
    expect(error.required.sort()).toEqual(["code", "message", "status"]);
    expect(error.properties.code.type).toBe("string");
    expect(error.properties.message.type).toBe("string");
    expect(error.properties.status.type).toBe("integer");
  });
  it("bounds every int64 to the JS-safe range", () => {
    const int64s = JSON.stringify(spec).match(/"format":"int64"/g) ?? [];
    expect(int64s.length).toBeGreaterThan(0);
    for (const name of ["PetId", "CategoryId"]) {
      expect(schema(name)).toMatchObject({ format: "int64", maximum: JS_SAFE_MAX });
    }
  });
  it("gives name a documented length range", () => {
    const name = schema("PetName");
    expect(name.minLength).toBe(1);
    expect(name.maxLength).toBe(100);
    expect(name.description).toMatch(/1 to 100 characters/);
  });
});

describe("endpoints", () => {
  it("listPets: limit 1..100 default 20, status filter on PetStatus, 200 Pets and 401", () => {
    const params = op("/pets", "get").parameters.map(deref);
    const limit = params.find((p: { name: string }) => p.name === "limit");
    expect(limit).toMatchObject({ in: "query", required: false });
    expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
    const status = params.find((p: { name: string }) => p.name === "status");
    expect(status).toMatchObject({ in: "query", required: false });
    expect(status.schema.$ref).toBe("#/components/schemas/PetStatus");
    expect(responseOf("/pets", "get", "200").content["application/json"].schema.$ref).toBe(
      "#/components/schemas/Pets",
    );
    expect(Object.keys(op("/pets", "get").responses)).toEqual(
      expect.arrayContaining(["200", "401"]),
    );
  });
  it("createPet: required NewPet body, 201 Pet, 400 and 401", () => {
    const body = op("/pets", "post").requestBody;
    expect(body.required).toBe(true);
    expect(body.content["application/json"].schema.$ref).toBe("#/components/schemas/NewPet");
    expect(responseOf("/pets", "post", "201").content["application/json"].schema.$ref).toBe(
      "#/components/schemas/Pet",
    );
    expect(Object.keys(op("/pets", "post").responses)).toEqual(
      expect.arrayContaining(["201", "400", "401"]),
    );
  });
  it("getPet: int64 petId path parameter, 200 Pet, 401 and 404", () => {
    const petId = deref(op("/pets/{petId}", "get").parameters[0]);
    expect(petId).toMatchObject({ name: "petId", in: "path", required: true });
    expect(deref(petId.schema)).toMatchObject({ type: "integer", format: "int64" });
    expect(responseOf("/pets/{petId}", "get", "200").content["application/json"].schema.$ref).toBe(
      "#/components/schemas/Pet",
    );
    expect(Object.keys(op("/pets/{petId}", "get").responses)).toEqual(
      expect.arrayContaining(["200", "401", "404"]),
    );
  });
  it("every error response of every operation carries the Error body, JSON only", () => {
    for (const { op: operation } of operations()) {
      for (const [status, ref] of Object.entries(operation.responses)) {
        const content = deref(ref).content;
        expect(Object.keys(content)).toEqual(["application/json"]);
        if (Number(status) >= 400) {
          expect(content["application/json"].schema.$ref).toBe("#/components/schemas/Error");
        }
      }
    }
  });
});

describe("authentication", () => {
  it("declares an HTTP bearer scheme and requires it on every operation", () => {
    expect(spec.components.securitySchemes.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
    expect(spec.security).toEqual([{ bearerAuth: [] }]);
    for (const { op: operation } of operations()) {
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
      expect(operation.responses["401"]).toBeDefined();
    }
  });
});

describe("errors table", () => {
  const table: [string, string, string][] = [
    ["400", "post", "/pets"],
    ["401", "get", "/pets"],
    ["401", "post", "/pets"],
    ["401", "get", "/pets/{petId}"],
    ["404", "get", "/pets/{petId}"],
    ["429", "get", "/pets"],
    ["429", "post", "/pets"],
    ["429", "get", "/pets/{petId}"],
  ];
  it.each(table)("%s is declared on %s %s", (status, method, path) => {
    expect(op(path, method).responses[status]).toBeDefined();
  });
  it("Error.status is an HTTP error status", () => {
    expect(schema("Error").properties.status).toMatchObject({ minimum: 400, maximum: 599 });
  });
  it("documents the error codes it uses, in the description and in the enum", () => {
    for (const code of schema("Error").properties.code.enum) {
      expect(spec.info.description).toContain(`\`${code}\``);
    }
  });
});

describe("limits", () => {
  const plans = spec.info["x-rate-limit-plans"];
  const grouped = (n: number) => n.toLocaleString("en-US");
  it("states the interface's plans in an extension, and the prose table agrees with it", () => {
    expect(Object.keys(plans)).toEqual(["free", "pro", "business", "enterprise"]);
    for (const [name, plan] of Object.entries(plans) as [string, Json][]) {
      const label = name[0]?.toUpperCase() + name.slice(1);
      const row =
        plan.perMinute === "custom"
          ? `| ${label} | custom`
          : `| ${label} | ${grouped(plan.perMinute)} | ${grouped(plan.perDay)} |`;
      expect(spec.info.description, `the prose row of ${name}`).toContain(row);
    }
    expect(plans.enterprise).toMatchObject({ perMinute: "custom", perDay: "custom" });
    const fallback = plans.enterprise.defaultsTo;
    expect(spec.info.description).toContain(
      `without limits of its own is counted on the ${fallback[0].toUpperCase()}${fallback.slice(1)} limits`,
    );
    const anonymous = spec.info["x-rate-limit-anonymous-plan"];
    expect(spec.info.description).toMatch(
      new RegExp(
        `counted per client\\s+address on the ${anonymous[0].toUpperCase()}${anonymous.slice(1)} plan`,
      ),
    );
  });
  it("states the ban rule in an extension, and the prose agrees with it", () => {
    const ban = spec.info["x-rate-limit-ban"];
    expect(Object.keys(ban).sort()).toEqual(["banSeconds", "rejectedRequestsBeforeBan"]);
    expect(spec.info.description).toMatch(
      new RegExp(
        `sends ${ban.rejectedRequestsBeforeBan} more requests[^.]*banned for ${ban.banSeconds} seconds`,
      ),
    );
  });
  it("every response of every operation declares the three X-RateLimit headers", () => {
    for (const { op: operation } of operations()) {
      for (const ref of Object.values(operation.responses)) {
        const headers = deref(ref).headers;
        for (const name of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) {
          expect(deref(headers[name]).schema.type).toBe("integer");
        }
      }
    }
  });
  it("every 429 declares an integer Retry-After and the Error body", () => {
    for (const { op: operation } of operations()) {
      const tooMany = deref(operation.responses["429"]);
      expect(deref(tooMany.headers["Retry-After"]).schema.type).toBe("integer");
      expect(tooMany.content["application/json"].schema.$ref).toBe("#/components/schemas/Error");
    }
  });
});

describe("deprecation", () => {
  const getPet = () => op("/pets/{petId}", "get");
  it("getPet is deprecated, removed on 5 December 2030, replaced by GET /pets?status=", () => {
    expect(getPet().deprecated).toBe(true);
    expect(getPet()["x-sunset"]).toBe("2030-12-05");
    expect(getPet().description).toMatch(/5 December 2030/);
    expect(getPet()["x-replacement"]).toBe("GET /pets?status=");
  });
  it("every deprecated operation's header schemas agree with its x-deprecated-since and x-sunset", () => {
    const deprecated = operations().filter(({ op: operation }) => operation.deprecated);
    expect(deprecated.length).toBeGreaterThan(0);
    for (const { op: operation } of deprecated) {
      const since = Date.parse(`${operation["x-deprecated-since"]}T00:00:00Z`) / 1000;
      const sunset = new Date(`${operation["x-sunset"]}T00:00:00Z`).toUTCString();
      for (const [status, ref] of Object.entries(operation.responses)) {
        const headers = deref(ref).headers;
        if (!headers.Sunset) continue;
        const where = `${operation.operationId} ${status}`;
        const sunsetSchema = deref(headers.Sunset).schema;
        if (sunsetSchema.const !== undefined) expect(sunsetSchema.const, where).toBe(sunset);
        const deprecation = deref(headers.Deprecation);
        expect(deprecation.schema.pattern, where).toBe("^@[0-9]+$");
        if (deprecation.example !== undefined && sunsetSchema.const !== undefined) {
          expect(deprecation.example, where).toBe(`@${since}`);
        }
      }
    }
  });
  it("declares Deprecation, Sunset and Link on its success response, and 410 after the sunset", () => {
    const ok = responseOf("/pets/{petId}", "get", "200");
    expect(deref(ok.headers.Sunset).schema.const).toBe("Thu, 05 Dec 2030 00:00:00 GMT");
    expect(deref(ok.headers.Deprecation).schema.pattern).toBe("^@[0-9]+$");
    expect(deref(ok.headers.Link)).toBeDefined();
    expect(responseOf("/pets/{petId}", "get", "410")).toBeDefined();
  });
});

describe("nothing marked 'not shown' is invented", () => {
  it("has no order, category, update or delete endpoints, no webhooks, no callbacks", () => {
    expect(Object.keys(spec.paths).sort()).toEqual(["/pets", "/pets/{petId}"]);
    expect(spec.webhooks).toBeUndefined();
    for (const { op: operation } of operations()) expect(operation.callbacks).toBeUndefined();
  });
  it("pages only through limit and the cursor of a next link: no offset, page number or total", () => {
    const list = op("/pets", "get");
    const params = list.parameters.map(deref).map((p: { name: string }) => p.name);
    const cursor = list["x-pagination"].cursorParameter;
    expect(params.sort()).toEqual(["limit", "status", cursor].sort());
    expect(Object.keys(list.responses["200"].headers)).toContain("Link");
    expect(deref(list.responses["200"].headers.Link).required).toBe(false);
  });
});

describe("paging (the list is described as paginated; its controls are ours)", () => {
  const list = () => op("/pets", "get");
  const limit = () => deref(list().parameters.find((p: Json) => deref(p).name === "limit")).schema;
  it("keeps the body a bare Pets array, never longer than limit's maximum", () => {
    expect(responseOf("/pets", "get", "200").content["application/json"].schema.$ref).toBe(
      "#/components/schemas/Pets",
    );
    expect(schema("Pets").type).toBe("array");
    expect(schema("Pets").maxItems).toBe(limit().maximum);
  });
  it("declares the cursor as an opaque string, with examples the Link example uses", () => {
    const name = list()["x-pagination"].cursorParameter;
    const cursor = deref(list().parameters.find((p: Json) => deref(p).name === name));
    expect(cursor).toMatchObject({ in: "query", required: false });
    // Open on purpose: every bad cursor reaches the server's own check and gets a cursor code.
    expect(cursor.schema).toEqual({ type: "string", minLength: 1 });
    const examples = Object.values(cursor.examples).map((e: Json) => deref(e).value);
    expect(examples.length).toBeGreaterThan(1);
    const link = deref(responseOf("/pets", "get", "200").headers.Link);
    expect(link.example).toMatch(new RegExp(`^<\\?[^>]*${name}=${examples[0]}[^>]*>; rel="next"$`));
    expect(link.example).toMatch(new RegExp(link.schema.pattern));
  });
  it("gives each bad cursor a code of its own, in the Error enum and the error table", () => {
    const examples = responseOf("/pets", "get", "400").content["application/json"].examples;
    const codes = Object.values(examples).map((e: Json) => deref(e).value.code);
    const cursorCodes = codes.filter((code: string) => code !== "validation_failed");
    expect(cursorCodes.length).toBe(2);
    for (const code of cursorCodes) {
      expect(schema("Error").properties.code.enum).toContain(code);
      expect(spec.info.description).toContain(`| \`${code}\` | 400 |`);
    }
  });
});
