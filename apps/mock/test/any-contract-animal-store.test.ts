// `pnpm mock --stateful --any-contract`: the any-contract application on the Animal Store's own
// contract (as a team gets it once its contract has replaced the Animal Store's): the stored
// resource inferred from the paths, seeded from the same examples the server's mock holds, and
// kept. Expectations are read from the spec.
import { storedResources } from "@animal-store/openapi";
import { requestExamples, spec } from "@animal-store/test-support/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedMock, launchMock } from "./launch.js";

// biome-ignore lint/suspicious/noExplicitAny: answers read by path
type Json = Record<string, any>;
const [resource] = storedResources(spec);
const examples = [...(resource?.examples ?? [])] as Record<string, unknown>[];
const collection = Object.keys(spec.paths ?? {}).find((path) => spec.paths?.[path]?.post);

describe("pnpm mock --stateful --any-contract on the Animal Store's contract", () => {
  let mock: LaunchedMock;
  let keys = 0;
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${mock.url}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer any-contract-${++keys}`,
        "content-type": "application/json",
        ...init.headers,
      },
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  beforeAll(async () => {
    mock = await launchMock(["--stateful", "--any-contract"]);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("infers the one stored resource and holds its examples", async () => {
    expect(mock.output()).toContain(`${examples.length} items of 1 resources (${collection})`);
    const ids = (list: Record<string, unknown>[]) =>
      list.map((item) => item[resource?.idProperty ?? ""]);
    expect(ids((await call(`${collection}`)).body as unknown as Json[]).sort()).toEqual(
      ids(examples).sort(),
    );
  });

  it("creates with the next id, then reads it and lists it", async () => {
    const [body] = Object.values(requestExamples(`${collection}`, "post")) as unknown[];
    const created = await call(`${collection}`, { method: "POST", body: JSON.stringify(body) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(body as object);
    const id = created.body[resource?.idProperty ?? ""];
    expect(id).toBe(Math.max(...examples.map((e) => Number(e[resource?.idProperty ?? ""]))) + 1);
    expect((await call(`${collection}/${id}`)).body).toEqual(created.body);
  });
});
