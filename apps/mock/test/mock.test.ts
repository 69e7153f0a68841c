// Starts the mock as `pnpm mock` does and calls every operation like a frontend would.
import { connect } from "node:net";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedMock, launchMock } from "./launch.js";
import { deref, type Json, requestExample, responseExamples, spec } from "./spec.js";

const auth = { Authorization: "Bearer any-key-works-on-the-mock" };
const json = { ...auth, "Content-Type": "application/json" };
const first = (examples: Record<string, Json>) => Object.values(examples)[0];
const getPetOp = spec.paths["/pets/{petId}"].get;

/** The example of each header a response declares, by header name. */
function headerExamples(response: Json): Record<string, string> {
  const headers = deref(response).headers as Record<string, Json>;
  return Object.fromEntries(
    Object.entries(headers).map(([name, h]) => [name, String(deref(h).example)]),
  );
}

describe("pnpm mock (named examples)", () => {
  let mock: LaunchedMock;
  beforeAll(async () => {
    mock = await launchMock();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("serves under the spec's base path, not at the root", async () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const root = await fetch(new URL("/pets", mock.url), { headers: auth });
    expect(root.status).toBe(404);
  });

  it("listPets: the first named example, with the declared headers", async () => {
    const res = await fetch(`${mock.url}/pets`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(first(responseExamples("/pets", "get", "200")));
    for (const [name, example] of Object.entries(
      headerExamples(spec.paths["/pets"].get.responses["200"]),
    )) {
      expect(res.headers.get(name), name).toBe(example);
    }
  });

  it("createPet: 201 with the created-pet example", async () => {
    const res = await fetch(`${mock.url}/pets`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(requestExample("/pets", "post")),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual(first(responseExamples("/pets", "post", "201")));
  });

  it("getPet: the example with the spec's Deprecation, Sunset and Link headers", async () => {
    const res = await fetch(`${mock.url}/pets/1`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(first(responseExamples("/pets/{petId}", "get", "200")));
    const declared = headerExamples(getPetOp.responses["200"]);
    for (const name of ["Deprecation", "Sunset", "Link"]) {
      expect(declared[name], name).toBeTruthy();
      expect(res.headers.get(name), name).toBe(declared[name]);
    }
  });

  it("Prefer: example=<name> picks a named example", async () => {
    const examples = responseExamples("/pets", "get", "200");
    expect(examples.empty).toBeDefined();
    const res = await fetch(`${mock.url}/pets`, { headers: { ...auth, Prefer: "example=empty" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(examples.empty);
  });

  it("Prefer: code=404 answers the declared 404", async () => {
    const res = await fetch(`${mock.url}/pets/1`, { headers: { ...auth, Prefer: "code=404" } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(first(responseExamples("/pets/{petId}", "get", "404")));
  });

  it("enforces the bearer scheme: no Authorization gets the spec's 401", async () => {
    for (const [path, init] of [
      ["/pets", {}],
      ["/pets/1", {}],
      ["/pets", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }],
    ] as const) {
      const res = await fetch(`${mock.url}${path}`, init);
      expect(res.status, path).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer /);
      expect(Object.values(responseExamples("/pets", "get", "401"))).toContainEqual(
        await res.json(),
      );
    }
  });

  it("validates requests against the spec (400 with the spec's Error body)", async () => {
    const limit = deref(spec.components.parameters.Limit).schema.maximum + 1;
    const tooMany = await fetch(`${mock.url}/pets?limit=${limit}`, { headers: auth });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ code: "validation_failed", status: 400 });
    const noName = await fetch(`${mock.url}/pets`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ categoryId: 1 }),
    });
    expect(noName.status).toBe(400);
    expect(await noName.json()).toMatchObject({ status: 400 });
  });
});

describe("pnpm mock --dynamic", () => {
  let mock: LaunchedMock;
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
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("generates schema-valid data for every operation", async () => {
    const list = await fetch(`${mock.url}/pets`, { headers: auth });
    expect(list.status).toBe(200);
    const pets = await list.json();
    validate("Pets", pets);
    expect(pets).not.toEqual(first(responseExamples("/pets", "get", "200")));

    const created = await fetch(`${mock.url}/pets`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(requestExample("/pets", "post")),
    });
    expect(created.status).toBe(201);
    validate("Pet", await created.json());

    const one = await fetch(`${mock.url}/pets/7`, { headers: auth });
    expect(one.status).toBe(200);
    validate("Pet", await one.json());
  });

  it("repeats the same data for the same --seed", async () => {
    const a = await (await fetch(`${mock.url}/pets`, { headers: auth })).json();
    const b = await (await fetch(`${mock.url}/pets`, { headers: auth })).json();
    expect(a).toEqual(b);
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

  it("refuses a bad flag with a usage message and exit code 2", async () => {
    await expect(launchMock(["--port", "nope"])).rejects.toThrow(
      /exited with 2[\s\S]*Usage: pnpm mock/,
    );
  });
});
