// `pnpm mock --stateful` as a frontend meets it, through @animal-store/client: data seeded from
// the spec's examples, filters, paging, 404 for an unknown id, creates kept, a reset and a
// restart that put the seed back, deprecation headers and the sunset's 410 on a pretend clock.
// Everything expected is read from the spec (its examples, statuses, enums, deprecations).
import {
  type AnimalStoreClient,
  createAnimalStoreClient,
  type NewPet,
  type Pet,
} from "@animal-store/client";
import { operationDeprecation, storedResources } from "@animal-store/openapi";
import { linksBesidesNext } from "@animal-store/test-support/links";
import {
  enumOf,
  first,
  headerExamples,
  operations,
  requestExamples,
  responseAt,
  responseExamples,
  spec,
} from "@animal-store/test-support/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedMock, launchMock } from "./launch.js";

const [resource] = storedResources(spec);
const seed = [...((resource?.examples ?? []) as Pet[])].sort((a, b) => a.id - b.id);
const highestId = Math.max(...seed.map((pet) => pet.id));
const deprecated = operations.flatMap((op) => {
  const deprecation = operationDeprecation(spec, op, operations);
  return deprecation?.sunset ? [{ op, sunset: deprecation.sunset }] : [];
});
const getPet = responseAt("/pets/{petId}", "get", "404");
const DAY = 86_400_000;

/** A client on the mock with a key of its own (each key has windows of its own). */
function clientFor(mock: LaunchedMock, apiKey: string): AnimalStoreClient {
  return createAnimalStoreClient({
    baseUrl: mock.url,
    apiKey,
    retry: false,
    onDeprecation: () => undefined,
  });
}

/** Every pet, page after page of `limit`, following each next link. */
async function everyPet(client: AnimalStoreClient, query: { status?: Pet["status"] } = {}) {
  const pets: Pet[] = [];
  for await (const page of client.pages("/pets", { params: { query: { ...query, limit: 1 } } })) {
    pets.push(...(page.data ?? []));
  }
  return pets;
}

describe("pnpm mock --stateful", () => {
  let mock: LaunchedMock;
  beforeAll(async () => {
    mock = await launchMock(["--stateful"]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("starts with every stored example of the spec, deduplicated by id, in id order", async () => {
    expect(seed.length).toBeGreaterThan(1);
    expect(mock.output()).toContain(`${seed.length} examples of ${resource?.name}`);
    const { data, response } = await clientFor(mock, "seeded").GET("/pets");
    expect(response.status).toBe(200);
    expect(data).toEqual(seed);
  });

  it.each(enumOf("PetStatus"))("the status filter: ?status=%s lists only those", async (status) => {
    const client = clientFor(mock, `filter-${status}`);
    const { data } = await client.GET("/pets", { params: { query: { status: status as never } } });
    expect(data).toEqual(seed.filter((pet) => pet.status === status));
  });

  it("pages: limit=1 answers one pet with a next link, and the links lead through every pet once", async () => {
    const client = clientFor(mock, "paging");
    const { data, response } = await client.GET("/pets", { params: { query: { limit: 1 } } });
    expect(data).toEqual(seed.slice(0, 1));
    expect(response.headers.get("Link")).toMatch(/; rel="next"$/);
    expect(await everyPet(client)).toEqual(seed);
  });

  it("answers an unknown id with the spec's 404", async () => {
    const { error, response } = await clientFor(mock, "unknown").GET("/pets/{petId}", {
      params: { path: { petId: highestId + 1000 } },
    });
    expect(response.status).toBe(404);
    const example = first<{ code: string }>(responseExamples("/pets/{petId}", "get", "404"));
    expect(error).toMatchObject({ code: example.code, status: 404 });
    for (const { name, required } of getPet.headers) {
      if (required) expect(response.headers.get(name), name).not.toBeNull();
    }
  });

  it("keeps what it creates: the next id, then listed, filtered and fetchable", async () => {
    const client = clientFor(mock, "creates");
    const body = first<NewPet>(requestExamples("/pets", "post"));
    const created = await client.POST("/pets", { body });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual({ ...body, id: highestId + 1 });
    const pet = created.data as Pet;
    expect(
      (await client.GET("/pets/{petId}", { params: { path: { petId: pet.id } } })).data,
    ).toEqual(pet);
    expect(await everyPet(client)).toEqual([...seed, pet]);
    if (pet.status) expect(await everyPet(client, { status: pet.status })).toContainEqual(pet);
  });

  it("POST /__mock/reset puts the seed back, ids included", async () => {
    const client = clientFor(mock, "reset");
    await client.POST("/pets", { body: first<NewPet>(requestExamples("/pets", "post")) });
    const reset = await fetch(`${mock.origin}/__mock/reset`, { method: "POST" });
    expect(reset.status).toBe(200);
    expect(await reset.json()).toEqual({ status: "reset", seeded: seed.length });
    expect((await client.GET("/pets")).data).toEqual(seed);
    const again = await client.POST("/pets", {
      body: first<NewPet>(requestExamples("/pets", "post")),
    });
    expect(again.data?.id).toBe(highestId + 1);
    // Not one of the contract's paths: a GET there is the ops routes' 405.
    const wrong = await fetch(`${mock.origin}/__mock/reset`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("Allow")).toBe("POST, OPTIONS");
  });

  it("a restart starts from the seed again", async () => {
    const client = clientFor(mock, "restart");
    await client.POST("/pets", { body: first<NewPet>(requestExamples("/pets", "post")) });
    await mock.stop();
    mock = await launchMock(["--stateful"]);
    expect((await clientFor(mock, "restarted").GET("/pets")).data).toEqual(seed);
  });
});

describe.each(deprecated)("pnpm mock --stateful: $op.operationId, deprecated", ({ op, sunset }) => {
  const path = op.path.replace(/\{\w+\}/, String(seed[0]?.id));
  const declared = headerExamples(op.path, op.method, "200");
  const call = async (now: Date) => {
    const mock = await launchMock(["--stateful", "--now", now.toISOString()]);
    try {
      return await fetch(`${mock.url}${path}`, {
        method: op.method,
        headers: { Authorization: "Bearer deprecated" },
      });
    } finally {
      await mock.stop();
    }
  };

  it("a day before its sunset: answered, with the spec's Deprecation, Sunset and Link", async () => {
    const answer = await call(new Date(sunset.getTime() - DAY));
    expect(answer.status).toBe(200);
    for (const name of ["Deprecation", "Sunset"]) {
      expect(answer.headers.get(name), name).toBe(declared[name]);
    }
    // The example of a paged list's Link shows a next link too (RFC 8288: several links in one
    // field); the successor's link is on every answer, a next link only on a page with more.
    expect(linksBesidesNext(answer.headers.get("Link")), "Link").toEqual(
      linksBesidesNext(declared.Link),
    );
    expect(linksBesidesNext(declared.Link)).not.toEqual([]);
  });

  it("from the sunset (--now): 410 gone, with the headers", async () => {
    const answer = await call(sunset);
    expect(answer.status).toBe(410);
    expect(await answer.json()).toMatchObject({ code: "gone", status: 410 });
    expect(answer.headers.get("Sunset")).toBe(declared.Sunset);
  });
});
