/**
 * Every row of the interface document's endpoint tables, over real HTTP with response validation
 * on: listPets 200/401, createPet 201/400/401, getPet 200/401/404.
 */

import type { Pet } from "@animal-store/api-types";
import {
  loadBundledSpec,
  operationById,
  parameterDefault,
  specOperations,
} from "@animal-store/openapi";
import { basePath, pagedList } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  documentedStatuses,
  expectError,
  postJson,
  startTestApp,
  type TestApp,
} from "./support/test-app.js";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function createPet(body: Record<string, unknown>): Promise<Pet> {
  const response = await postJson(app, body);
  expect(response.status).toBe(201);
  return (await response.json()) as Pet;
}

describe("createPet (POST /pets)", () => {
  it("201: returns the pet with its assigned id", async () => {
    const pet = await createPet({ name: "Rex", categoryId: 1, status: "available" });
    expect(pet).toEqual({
      id: expect.any(Number),
      name: "Rex",
      categoryId: 1,
      status: "available",
    });
    expect(pet.id).toBeGreaterThanOrEqual(1);
  });

  it("201: a pet without status has no status field (not null)", async () => {
    const pet = await createPet({ name: "Nemo", categoryId: 3 });
    expect(Object.keys(pet).sort()).toEqual(["categoryId", "id", "name"]);
  });

  it("201: accepts the largest ids and names the contract allows", async () => {
    const name = "N".repeat(100);
    const pet = await createPet({ name, categoryId: Number.MAX_SAFE_INTEGER, status: "sold" });
    expect(pet).toMatchObject({ name, categoryId: Number.MAX_SAFE_INTEGER, status: "sold" });
  });

  it("400: a required field is missing", async () => {
    const noName = await expectError(
      await postJson(app, { categoryId: 1 }),
      400,
      "validation_failed",
    );
    expect(noName.message).toBe("body must have required property 'name'");
    const noCategory = await expectError(
      await postJson(app, { name: "x" }),
      400,
      "validation_failed",
    );
    expect(noCategory.message).toContain("categoryId");
  });

  it("400: a value is invalid", async () => {
    const bad = await expectError(
      await postJson(app, { name: "Rex", categoryId: 1, status: "lost" }),
      400,
      "validation_failed",
    );
    expect(bad.message).toContain("body/status");
  });

  it("401: missing or invalid key", async () => {
    const body = JSON.stringify({ name: "Rex", categoryId: 1 });
    const headers = { "content-type": "application/json" };
    await expectError(
      await fetch(`${app.url}${basePath}/pets`, { method: "POST", headers, body }),
      401,
      "unauthorized",
    );
    await expectError(
      await postJson(app, body, { authorization: "Bearer ask_not-a-key" }),
      401,
      "invalid_api_key",
    );
  });
});

describe("getPet (GET /pets/{petId})", () => {
  it("200: returns the stored pet", async () => {
    const created = await createPet({ name: "Tom", categoryId: 2, status: "pending" });
    const response = await app.api(`/pets/${created.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(created);
  });

  it("404: no pet has this id", async () => {
    const missing = Number.MAX_SAFE_INTEGER;
    const body = await expectError(await app.api(`/pets/${missing}`), 404, "not_found");
    expect(body.message).toBe(`Pet ${missing} not found.`);
  });

  it("401: missing or invalid key", async () => {
    await expectError(await fetch(`${app.url}${basePath}/pets/1`), 401, "unauthorized");
    await expectError(
      await app.api("/pets/1", { headers: { authorization: "Bearer wrong" } }),
      401,
      "invalid_api_key",
    );
  });
});

describe("listPets (GET /pets)", () => {
  let mine: TestApp;
  beforeAll(async () => {
    mine = await startTestApp();
    const statuses = ["available", "pending", "sold", undefined] as const;
    // Sequential on purpose: ids must come out in creation order.
    for (let i = 0; i < 30; i++) {
      const status = statuses[i % statuses.length];
      const response = await postJson(mine, {
        name: `pet ${i}`,
        categoryId: 1 + (i % 5),
        ...(status ? { status } : {}),
      });
      expect(response.status).toBe(201);
    }
  });
  afterAll(() => mine.close());

  async function list(query: string): Promise<Pet[]> {
    const response = await mine.api(`/pets${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Pet[];
  }

  it("200: a bare array in ascending id order, the contract's default page size", async () => {
    const pets = await list("");
    const { spec } = loadBundledSpec();
    const listPets = operationById(specOperations(spec), "listPets");
    expect(pets).toHaveLength(parameterDefault(spec, listPets, "limit") as number);
    const ids = pets.map((pet) => pet.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("200: limit caps the page, from the lowest id", async () => {
    const all = await list(`?limit=${pagedList().max}`);
    expect(all).toHaveLength(30);
    expect(await list("?limit=1")).toEqual([all[0]]);
    expect(await list("?limit=7")).toEqual(all.slice(0, 7));
  });

  it("200: status filters, still in id order and limited", async () => {
    const all = await list(`?limit=${pagedList().max}`);
    for (const status of ["available", "pending", "sold"] as const) {
      const expected = all.filter((pet) => pet.status === status);
      expect(await list(`?status=${status}&limit=${pagedList().max}`)).toEqual(expected);
      expect(await list(`?status=${status}&limit=2`)).toEqual(expected.slice(0, 2));
    }
  });

  it("200: an empty store gives an empty array", async () => {
    const empty = await startTestApp();
    try {
      const response = await empty.api("/pets");
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([]);
    } finally {
      await empty.close();
    }
  });

  it("401: missing or invalid key", async () => {
    await expectError(await fetch(`${mine.url}${basePath}/pets`), 401, "unauthorized");
    await expectError(
      await mine.api("/pets", { headers: { authorization: "Bearer ask_revoked-or-unknown" } }),
      401,
      "invalid_api_key",
    );
  });
});

describe("the contract documents every status these rows produce", () => {
  it("lists 200/401, 201/400/401 and 200/401/404", () => {
    expect(documentedStatuses("listPets")).toEqual(expect.arrayContaining([200, 401]));
    expect(documentedStatuses("createPet")).toEqual(expect.arrayContaining([201, 400, 401]));
    expect(documentedStatuses("getPet")).toEqual(expect.arrayContaining([200, 401, 404]));
  });
});
