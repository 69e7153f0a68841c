// The openapi-fetch view of the client: the same object, typed as openapi-fetch's Client, so
// libraries built on that type (openapi-react-query) take it; its calls keep the client's behaviour.
import type { paths } from "@animal-store/api-types";
import type { Client } from "openapi-fetch";
import { describe, expect, expectTypeOf, it } from "vitest";
import { asOpenapiFetchClient, createAnimalStoreClient } from "../src/index.js";

describe("asOpenapiFetchClient", () => {
  it("is the same client, typed as openapi-fetch's Client, its calls still sending the key", async () => {
    const seen: Request[] = [];
    const client = createAnimalStoreClient({
      baseUrl: "http://api.test/v1",
      apiKey: "k1",
      fetch: async (request) => {
        seen.push(request);
        return new Response("[]", { status: 200, headers: { "content-type": "application/json" } });
      },
    });
    const view = asOpenapiFetchClient(client);
    expectTypeOf(view).toEqualTypeOf<Client<paths, "application/json">>();
    expect(view).toBe(client);
    const { data } = await view.GET("/pets");
    expect(data).toEqual([]);
    expect(seen[0]?.headers.get("authorization")).toBe("Bearer k1");
  });
});
