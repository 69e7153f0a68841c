/**
 * Storage keeps every property the contract lets a client send: a pet created with each property
 * of the request body's schema, optional ones included, comes back with each of them, on create,
 * on read and in the list. A property added to the spec but not to the store fails here rather
 * than being dropped silently.
 */

import { deref, type JsonObject, loadBundledSpec } from "@animal-store/openapi";
import { pagedList } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contract, exampleCall } from "./support/contract.js";
import { startTestApp, type TestApp } from "./support/test-app.js";

const { spec } = loadBundledSpec();
const create = contract.operations.find((op) => op.operationId === "createPet");
const get = contract.operations.find((op) => op.operationId === "getPet");
const list = contract.operations.find((op) => op.operationId === "listPets");

/** A value for a property schema: its first example, its first enum value, or one of its type. */
function sample(schema: JsonObject): unknown {
  const resolved = deref<JsonObject>(spec, schema);
  if (Array.isArray(resolved.examples) && resolved.examples.length > 0) return resolved.examples[0];
  if (Array.isArray(resolved.enum)) return resolved.enum[0];
  const byType: Record<string, unknown> = {
    string: "round-trip",
    integer: 7,
    number: 1.5,
    boolean: true,
  };
  return byType[String(resolved.type)] ?? null;
}

/** A request body with every property of the operation's body schema. */
function fullBody(): Record<string, unknown> {
  const content = (create?.requestBody?.content ?? {}) as Record<string, JsonObject>;
  const media = content["application/json"];
  const schema = deref<JsonObject>(spec, media?.schema);
  const properties = (schema.properties ?? {}) as Record<string, JsonObject>;
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, sample(property)]),
  );
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("every property of the request body round-trips through storage", () => {
  it("on create, on read and in the list", async () => {
    if (!create || !get || !list)
      throw new Error("the contract lacks createPet, getPet or listPets");
    const body = fullBody();
    expect(Object.keys(body).length).toBeGreaterThan(0);
    const { path, init } = exampleCall(create);
    const created = await app.api(path, { ...init, body: JSON.stringify(body) });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as Record<string, unknown>;
    expect(pet).toMatchObject(body);
    const read = await app.api(get.path.replace("{petId}", String(pet.id)));
    expect(await read.json()).toEqual(pet);
    const listed = (await (
      await app.api(`${list.path}?limit=${pagedList().max}`)
    ).json()) as unknown[];
    expect(listed).toContainEqual(pet);
  });
});
