// Starts the mock as `pnpm mock` does and calls every operation through @animal-store/client,
// as a frontend would: only the client's baseUrl differs from the real server.

import { connect } from "node:net";
import type { NewPet } from "@animal-store/api-types";
import { type AnimalStoreClient, createAnimalStoreClient, nextPageUrl } from "@animal-store/client";
import { operationPagination } from "@animal-store/openapi";
import { nextLinkTarget } from "@animal-store/test-support/links";
import {
  component,
  first,
  headerExamples,
  operationAt,
  requestExamples,
  resolve,
  responseExamples,
  spec,
} from "@animal-store/test-support/spec";
import { basePath } from "@animal-store/test-support/spec-values";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedMock, launchMock } from "./launch.js";

/** A client on the mock; any key works there, and deprecation notices are not printed. */
function clientFor(mock: LaunchedMock): AnimalStoreClient {
  return createAnimalStoreClient({
    baseUrl: mock.url,
    apiKey: "any-key-works-on-the-mock",
    retry: false,
    onDeprecation: () => undefined,
  });
}

describe("pnpm mock (named examples)", () => {
  let mock: LaunchedMock;
  let client: AnimalStoreClient;
  beforeAll(async () => {
    mock = await launchMock();
    client = clientFor(mock);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("serves under the spec's base path, not at the root", async () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(new URL(mock.url).pathname).toBe(basePath);
    const root = await fetch(new URL("/pets", mock.url), {
      headers: { Authorization: "Bearer k" },
    });
    expect(root.status).toBe(404);
  });

  it("listPets: the first named example, with the declared headers", async () => {
    const { data, response } = await client.GET("/pets");
    expect(response.status).toBe(200);
    expect(data).toEqual(first(responseExamples("/pets", "get", "200")));
    const declared = headerExamples("/pets", "get", "200");
    for (const [name, example] of Object.entries(declared)) {
      expect(response.headers.get(name), name).toBe(example);
    }
    expect(client.rateLimit?.limit).toBe(Number(declared["X-RateLimit-Limit"]));
  });

  it("listPets pages as far as Prism can: the cursor is accepted, the example next link is served", async () => {
    const pagination = operationPagination(spec, operationAt("/pets", "get"));
    if (!pagination) throw new Error("listPets declares no x-pagination");
    const cursorName = pagination.cursorParameter;
    const declared = headerExamples("/pets", "get", "200");
    const link = declared.Link ?? "";
    // The example's next link, among whatever other links the field carries (RFC 8288), followed
    // as a client does: resolved against the page's URL.
    expect(nextLinkTarget(link), link).toBeDefined();
    const target = new URL(nextLinkTarget(link) ?? "", `${mock.url}/pets`);
    expect(target.searchParams.get(cursorName)).toBeTruthy();
    const next = await fetch(target, { headers: { Authorization: "Bearer k" } });
    expect(next.status).toBe(200);
    expect(await next.json()).toEqual(first(responseExamples("/pets", "get", "200")));
    expect(next.headers.get("Link")).toBe(link);
  });

  it("createPet: 201 with the created-pet example", async () => {
    const { data, response } = await client.POST("/pets", {
      body: first<NewPet>(requestExamples("/pets", "post")),
    });
    expect(response.status).toBe(201);
    expect(data).toEqual(first(responseExamples("/pets", "post", "201")));
  });

  it("getPet: the example with the spec's Deprecation, Sunset and Link headers", async () => {
    const { data, response } = await client.GET("/pets/{petId}", {
      params: { path: { petId: 1 } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual(first(responseExamples("/pets/{petId}", "get", "200")));
    const declared = headerExamples("/pets/{petId}", "get", "200");
    for (const name of ["Deprecation", "Sunset", "Link"]) {
      expect(declared[name], name).toBeTruthy();
      expect(response.headers.get(name), name).toBe(declared[name]);
    }
  });

  it("Prefer: example=<name> picks a named example", async () => {
    const examples = responseExamples("/pets", "get", "200");
    expect(examples.empty).toBeDefined();
    const { data, response } = await client.GET("/pets", {
      headers: { Prefer: "example=empty" },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual(examples.empty);
  });

  it("Prefer: code=404 answers the declared 404", async () => {
    const { error, response } = await client.GET("/pets/{petId}", {
      params: { path: { petId: 1 } },
      headers: { Prefer: "code=404" },
    });
    expect(response.status).toBe(404);
    expect(error).toEqual(first(responseExamples("/pets/{petId}", "get", "404")));
  });

  it("enforces the bearer scheme: no Authorization gets the spec's 401", async () => {
    const unauthorized = Object.values(responseExamples("/pets", "get", "401"));
    for (const [path, init] of [
      ["/pets", {}],
      ["/pets/1", {}],
      ["/pets", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }],
    ] as const) {
      const res = await fetch(`${mock.url}${path}`, init);
      expect(res.status, path).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer /);
      expect(unauthorized).toContainEqual(await res.json());
    }
  });

  it("validates requests against the spec (400 with the spec's Error body)", async () => {
    const limit = Number(resolve(component("parameters", "Limit").schema).maximum) + 1;
    const tooMany = await client.GET("/pets", { params: { query: { limit } } });
    expect(tooMany.response.status).toBe(400);
    expect(tooMany.error).toMatchObject({ code: "validation_failed", status: 400 });
    // A body without `name`, as an untyped caller could send it.
    const noName = await client.POST("/pets", { body: { categoryId: 1 } as never });
    expect(noName.response.status).toBe(400);
    expect(noName.error).toMatchObject({ code: "validation_failed", status: 400 });
  });
});

describe("pnpm mock --dynamic", () => {
  let mock: LaunchedMock;
  let client: AnimalStoreClient;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat("int64", { type: "number", validate: Number.isSafeInteger });
  ajv.addSchema(spec, "spec");
  const validate = (schema: string, value: unknown) => {
    const check = ajv.getSchema(`spec#/components/schemas/${schema}`);
    if (!check) throw new Error(`no schema ${schema}`);
    expect(check(value), ajv.errorsText(check.errors)).toBe(true);
  };
  beforeAll(async () => {
    mock = await launchMock(["--dynamic", "--seed", "frontend"]);
    client = clientFor(mock);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("generates schema-valid data for every operation", async () => {
    const list = await client.GET("/pets");
    expect(list.response.status).toBe(200);
    validate("Pets", list.data);
    expect(list.data).not.toEqual(first(responseExamples("/pets", "get", "200")));

    const created = await client.POST("/pets", {
      body: first<NewPet>(requestExamples("/pets", "post")),
    });
    expect(created.response.status).toBe(201);
    validate("Pet", created.data);

    const one = await client.GET("/pets/{petId}", { params: { path: { petId: 7 } } });
    expect(one.response.status).toBe(200);
    validate("Pet", one.data);
  });

  it("serves the example next link and accepts the cursor it carries", async () => {
    const first = await client.GET("/pets");
    const next = nextPageUrl(first.response);
    expect(next).toBeDefined();
    const second = await fetch(next as URL, { headers: { Authorization: "Bearer k" } });
    expect(second.status).toBe(200);
    validate("Pets", await second.json());
  });

  it("repeats the same data for the same --seed", async () => {
    const a = await client.GET("/pets");
    const b = await client.GET("/pets");
    expect(a.data).toEqual(b.data);
  });
});

describe("shutdown", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s stops the mock and frees the port",
    async (signal) => {
      const mock = await launchMock();
      const { port } = new URL(mock.url);
      expect(await mock.stop(signal)).toBe(0);
      const refused = await new Promise<boolean>((resolve) => {
        const socket = connect(Number(port), "127.0.0.1");
        socket.once("connect", () => resolve(socket.destroy() && false));
        socket.once("error", () => resolve(true));
      });
      expect(refused).toBe(true);
    },
  );

  it("refuses a bad flag with one line pointing at the usage and exit code 2", async () => {
    await expect(launchMock(["--port", "nope"])).rejects.toThrow(
      /exited with 2[\s\S]*mock: .*\(pnpm mock --help for usage\)/,
    );
  });
});
