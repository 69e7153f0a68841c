// `pnpm mock --stateful --spec` on a contract that is not the Animal Store's (the fixture
// `orchard-co-op.yaml`): resources inferred from its paths, kept in memory, listed with its own
// filters and paging; other operations from its examples, `Prefer` choosing; `--seed N`; and
// the engine's validation in front of all of it. Expectations are read from the fixture.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type LaunchedMock, launchMock } from "./launch.js";

// biome-ignore lint/suspicious/noExplicitAny: the fixture's parsed JSON and the answers, read by path
type Json = Record<string, any>;

const fixture = fileURLToPath(new URL("./fixtures/orchard-co-op.yaml", import.meta.url));
const spec = parse(readFileSync(fixture, "utf8"));
const scratch = mkdtempSync(join(tmpdir(), "any-contract-mock-"));
const specPath = join(scratch, "openapi.json");
writeFileSync(specPath, JSON.stringify(spec));

const media = (path: string, method: string, status: string) =>
  spec.paths[path][method].responses[status].content["application/json"];
const growerExamples: Json[] = [
  ...media("/growers", "get", "200").examples.two.value.items,
  media("/growers", "post", "201").examples.millbrook.value,
];
const crateExamples: Json[] = media("/crates", "get", "200").examples.three.value;
const reportExamples = media("/harvest-report", "get", "200").examples;
const regions: string[] = spec.components.schemas.Region.enum;
const defaultLimit: number = spec.paths["/growers"].get.parameters.find(
  (p: Json) => p.name === "limit",
).schema.default;

let keys = 0;

function client(mock: LaunchedMock) {
  return async (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    // A key of its own per request: each key is counted in windows of its own, and these suites
    // send more than a plan's minute allows.
    if (!headers.has("authorization")) headers.set("authorization", `Bearer orchard-key-${++keys}`);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    const body = init.json === undefined ? init.body : JSON.stringify(init.json);
    const res = await fetch(path.startsWith("http") ? path : `${mock.url}${path}`, {
      ...init,
      headers,
      body,
    });
    const text = await res.text();
    return { res, status: res.status, body: text === "" ? undefined : JSON.parse(text) };
  };
}

/** Every grower, following limit/offset to the end. */
async function allGrowers(api: ReturnType<typeof client>, query = "") {
  const seen: Json[] = [];
  for (let offset = 0; ; ) {
    const { status, body } = await api(`/growers?limit=2&offset=${offset}${query}`);
    expect(status).toBe(200);
    seen.push(...body.items);
    expect(body.limit).toBe(2);
    expect(body.offset).toBe(offset);
    offset += 2;
    if (offset >= body.total) return { items: seen, total: body.total };
  }
}

describe("the stateful mock on a foreign contract", { timeout: 120_000 }, () => {
  let mock: LaunchedMock;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    mock = await launchMock(["--stateful", "--spec", specPath], 60_000);
    api = client(mock);
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("serves the contract's base path and names the resources it inferred", () => {
    expect(new URL(mock.url).pathname).toBe(new URL(spec.servers[0].url).pathname);
    expect(mock.output()).toContain(
      `Orchard Co-op mock (stateful) serving ${growerExamples.length + crateExamples.length} items of 3 resources (/growers, /crates, /growers/{growerId}/plots)`,
    );
  });

  it("is seeded from the examples, in the list's order", async () => {
    const { body } = await api("/growers");
    expect(body).toEqual({
      items: growerExamples,
      total: growerExamples.length,
      limit: defaultLimit,
      offset: 0,
    });
    expect((await api("/crates")).body).toEqual(crateExamples);
  });

  it("creates, reads, lists with a filter and paging, replaces, updates, removes, then 404", async () => {
    const sent = { name: "Quince Hill", region: "west", organic: false };
    const created = await api("/growers", { method: "POST", json: sent });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(sent);
    const id: string = created.body.growerId;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.res.headers.get("location")).toBe(`${new URL(mock.url).pathname}/growers/${id}`);
    const read = await api(`${mock.origin}${created.res.headers.get("location")}`);
    expect(read.body).toEqual(created.body);

    const west = await api("/growers?region=west");
    expect(west.body.items).toEqual([created.body]);
    for (const region of regions) {
      const { body } = await api(`/growers?region=${region}`);
      const every = [...growerExamples, created.body].filter((g) => g.region === region);
      expect(body.items, region).toEqual(every);
      expect(body.total, region).toBe(every.length);
    }
    const organic = await api("/growers?organic=true");
    expect(organic.body.items).toEqual(growerExamples.filter((g) => g.organic === true));

    const paged = await allGrowers(api);
    expect(paged.items).toEqual([...growerExamples, created.body]);
    expect(paged.total).toBe(growerExamples.length + 1);

    const replaced = await api(`/growers/${id}`, {
      method: "PUT",
      json: { name: "Quince Hill Farm", region: "north" },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({
      growerId: id,
      name: "Quince Hill Farm",
      region: "north",
      since: created.body.since,
    });
    const updated = await api(`/growers/${id}`, { method: "PATCH", json: { organic: true } });
    expect(updated.body).toEqual({ ...replaced.body, organic: true });
    expect((await api(`/growers/${id}`)).body).toEqual(updated.body);

    const removed = await api(`/growers/${id}`, { method: "DELETE" });
    expect(removed.status).toBe(204);
    expect(removed.body).toBeUndefined();
    const gone = await api(`/growers/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: "not_found", status: 404 });
    expect((await api(`/growers/${id}`, { method: "PATCH", json: { organic: true } })).status).toBe(
      404,
    );
    expect((await api("/growers")).body.items).toEqual(growerExamples);
  });

  it("pages crates by cursor, following Link to the end, filter kept", async () => {
    const apples = crateExamples.filter((c) => c.fruit === "apple");
    const made = await api("/crates", { method: "POST", json: { fruit: "apple", kilograms: 7 } });
    expect(made.status).toBe(201);
    expect(made.body.id).toBe(Math.max(...crateExamples.map((c) => c.id)) + 1);
    const seen: Json[] = [];
    let next: string | undefined = `${mock.url}/crates?fruit=apple&pageSize=1`;
    let pages = 0;
    while (next) {
      const page = await api(next);
      expect(page.status).toBe(200);
      seen.push(...page.body);
      pages++;
      // A next link back to a page already read would loop: no more pages than crates.
      expect(pages).toBeLessThanOrEqual(crateExamples.length + 1);
      const link = page.res.headers.get("link");
      const target = link ? /<([^>]+)>; rel="next"/.exec(link)?.[1] : undefined;
      next = target ? `${mock.origin}${target}` : undefined;
    }
    expect(seen).toEqual([...apples, made.body]);
    expect(pages).toBe(apples.length + 1);
    const bad = await api("/crates?cursor=not-a-cursor");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_failed");
    expect((await api(`/crates/${made.body.id}`, { method: "DELETE" })).status).toBe(204);
  });

  it("keeps a grower's plots apart from another's, paged by page and perPage", async () => {
    const [first, second] = growerExamples;
    const plots: Json[] = [];
    for (const crop of ["apple", "plum", "apple"]) {
      const made = await api(`/growers/${first?.growerId}/plots`, {
        method: "POST",
        json: { crop, hectares: 1.5 },
      });
      expect(made.status).toBe(201);
      plots.push(made.body);
    }
    expect((await api(`/growers/${second?.growerId}/plots`)).body.data).toEqual([]);
    const page1 = await api(`/growers/${first?.growerId}/plots?perPage=2`);
    expect(page1.body).toEqual({ data: plots.slice(0, 2), page: 1, hasMore: true });
    const page2 = await api(`/growers/${first?.growerId}/plots?perPage=2&page=2`);
    expect(page2.body).toEqual({ data: plots.slice(2), page: 2, hasMore: false });
    const apples = await api(`/growers/${first?.growerId}/plots?crop=apple`);
    expect(apples.body.data).toEqual(plots.filter((p) => p.crop === "apple"));
  });

  it("answers other operations from the contract, Prefer choosing the example or status", async () => {
    const [firstName, firstExample] = Object.entries(reportExamples)[0] as [string, Json];
    expect((await api("/harvest-report")).body).toEqual(firstExample.value);
    for (const [name, example] of Object.entries(reportExamples) as [string, Json][]) {
      const chosen = await api("/harvest-report", { headers: { prefer: `example=${name}` } });
      expect(chosen.body, name).toEqual(example.value);
    }
    expect(firstName).toBeTruthy();
    const notYet = await api("/harvest-report", { headers: { prefer: "code=404" } });
    expect(notYet.status).toBe(404);
    expect(notYet.body).toEqual(media("/harvest-report", "get", "404").examples.notYet.value);
    const verdict = await api("/crates/11/inspection", {
      method: "POST",
      json: { inspector: "Bo" },
    });
    expect(verdict.status).toBe(200);
    expect(
      spec.paths["/crates/{crateId}/inspection"].post.responses["200"].content["application/json"]
        .schema.properties.verdict.enum,
    ).toContain(verdict.body.verdict);
    // On a resource, Prefer asks for the documented answer instead of what the request causes.
    const id = growerExamples[0]?.growerId;
    const preferred = await api(`/growers/${id}`, { headers: { prefer: "code=404" } });
    expect(preferred.status).toBe(404);
    expect((await api(`/growers/${id}`)).status).toBe(200);
    const unknown = await api("/harvest-report", { headers: { prefer: "example=winter" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain(Object.keys(reportExamples).join(", "));
    expect((await api("/harvest-report", { headers: { prefer: "code=418" } })).status).toBe(400);
  });

  it("refuses what the engine's validation refuses, before any data changes", async () => {
    const before = (await api("/growers")).body;
    const missing = await api("/growers", { method: "POST", json: { name: "No Region" } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "validation_failed" });
    expect(missing.body.message).toContain("region");
    const extra = await api("/growers", {
      method: "POST",
      json: { name: "Extra", region: "east", acres: 3 },
    });
    expect(extra.status).toBe(400);
    expect((await api("/growers/not-a-uuid")).status).toBe(400);
    expect((await api("/growers?region=centre")).status).toBe(400);
    expect((await api("/growers?limit=0")).status).toBe(400);
    expect((await api("/crates/0")).status).toBe(400);
    const keyless = await api("/growers", { headers: { authorization: "" } });
    expect(keyless.status).toBe(401);
    expect((await api("/growers")).body).toEqual(before);
  });

  it("POST /__mock/reset puts the seed back", async () => {
    await api("/crates", { method: "POST", json: { fruit: "pear", kilograms: 3 } });
    await api(`/crates/${crateExamples[0]?.id}`, { method: "DELETE" });
    const reset = await fetch(`${mock.origin}/__mock/reset`, { method: "POST" });
    expect(await reset.json()).toEqual({
      status: "reset",
      seeded: growerExamples.length + crateExamples.length,
    });
    expect((await api("/crates")).body).toEqual(crateExamples);
  });
});

describe("--seed N on a foreign contract", { timeout: 120_000 }, () => {
  const count = 9;
  let mock: LaunchedMock;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    mock = await launchMock(["--stateful", "--spec", specPath, "--seed", String(count)], 60_000);
    api = client(mock);
  });
  afterAll(async () => {
    await mock?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("adds N synthesized items per resource after the examples, enough to page through", async () => {
    const { items, total } = await allGrowers(api);
    expect(total).toBe(growerExamples.length + count);
    expect(items.slice(0, growerExamples.length)).toEqual(growerExamples);
    const made = items.slice(growerExamples.length);
    expect(new Set(items.map((g) => g.growerId)).size).toBe(items.length);
    // Each enum property cycles its values, so every filter value finds some.
    for (const region of regions) {
      const { items: found } = await allGrowers(api, `&region=${region}`);
      expect(found, region).toEqual(items.filter((g) => g.region === region));
      expect(
        made.some((g) => g.region === region),
        region,
      ).toBe(true);
    }
    const crates = (await api("/crates?pageSize=30")).body as Json[];
    expect(crates).toHaveLength(crateExamples.length + count);
    expect(crates.map((c) => c.id)).toEqual([
      ...crateExamples.map((c) => c.id),
      ...Array.from(
        { length: count },
        (_, i) => Math.max(...crateExamples.map((c) => c.id)) + 1 + i,
      ),
    ]);
  });
});
