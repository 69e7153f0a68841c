// `pnpm mock --stateful --seed <n>` on the Animal Store's contract: the server's own handlers over
// the spec's examples and n more items synthesized from the stored resource's schema, enough to
// page through. Everything expected is read from the spec.
import { type AnimalStoreClient, createAnimalStoreClient, type Pet } from "@animal-store/client";
import { storedResources } from "@animal-store/openapi";
import { enumOf, spec } from "@animal-store/test-support/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedMock, launchMock } from "./launch.js";

const [resource] = storedResources(spec);
const examples = [...((resource?.examples ?? []) as Pet[])].sort((a, b) => a.id - b.id);
const count = 23;

describe("pnpm mock --stateful --seed <n>", () => {
  let mock: LaunchedMock;
  let keys = 0;
  const client = (): AnimalStoreClient =>
    createAnimalStoreClient({
      baseUrl: mock.url,
      apiKey: `seeded-key-${++keys}`,
      retry: false,
      onDeprecation: () => undefined,
    });
  /** Every pet, page after page of 5, following each next link. */
  async function everyPet(query: { status?: Pet["status"] } = {}) {
    const pets: Pet[] = [];
    let pages = 0;
    for await (const page of client().pages("/pets", {
      params: { query: { ...query, limit: 5 } },
    })) {
      pets.push(...(page.data ?? []));
      pages++;
    }
    return { pets, pages };
  }

  beforeAll(async () => {
    mock = await launchMock(["--stateful", "--seed", String(count)]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("says what it holds", () => {
    expect(mock.output()).toContain(
      `${examples.length} examples and ${count} synthesized items of ${resource?.name} as data`,
    );
  });

  it("holds the examples, then n synthesized pets with the next ids, paged to the end", async () => {
    const { pets, pages } = await everyPet();
    expect(pets).toHaveLength(examples.length + count);
    expect(pets.slice(0, examples.length)).toEqual(examples);
    const highest = Math.max(...examples.map((pet) => pet.id));
    expect(pets.slice(examples.length).map((pet) => pet.id)).toEqual(
      Array.from({ length: count }, (_, i) => highest + 1 + i),
    );
    expect(pages).toBe(Math.ceil((examples.length + count) / 5));
  });

  it("cycles each enum, so every status filter finds synthesized pets", async () => {
    const all = (await everyPet()).pets;
    for (const status of enumOf("PetStatus") as Pet["status"][]) {
      const { pets } = await everyPet({ status });
      expect(pets, status).toEqual(all.filter((pet) => pet.status === status));
      expect(
        pets.some((pet) => !examples.some((e) => e.id === pet.id)),
        status,
      ).toBe(true);
    }
  });
});
