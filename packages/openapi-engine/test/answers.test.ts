/**
 * Answers of every shape a response can declare, through the real app over the answers fixture
 * (test/fixtures/answers.yaml), in development (responses checked against the contract) and in
 * production (compiled serializers): a response declared without content goes out without a body
 * or a Content-Type; CSV, an image and a second JSON type are written in their declared type,
 * chosen by Accept; an Accept nothing declared fits gets 406 in the contract's error shape before
 * the handler runs; writeOnly inside a oneOf is honoured alike by the checker and the serializer.
 * Every type, status and property is read off the fixture.
 */
import { deref, documentedResponses, type JsonObject } from "@animal-store/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HandlerSet } from "../src/compiled-operation.js";
import { compileContract } from "../src/contract/contract.js";
import { type ScratchApp, startScratchApp } from "../src/testing/index.js";
import { fixtureApplication, type KeysOnlyStore } from "./support/fixture-app.js";
import { loadFixture } from "./support/fixture-contract.js";

const loaded = loadFixture("answers");
const contract = compileContract(loaded);
const { spec } = contract;
const op = (id: string) => {
  const found = contract.operations.find((o) => o.operationId === id);
  if (!found) throw new Error(`the answers fixture has no ${id}`);
  return found;
};
/** The media types `operationId` declares for `status`, in the contract's order. */
const typesOf = (id: string, status: string) =>
  Object.keys(documentedResponses(spec, op(id)).find((r) => r.status === status)?.content ?? {});

const listTypes = typesOf("listPosters", "200");
const csv = listTypes.find((t) => t.startsWith("text/")) as string;
const posterTypes = typesOf("getPoster", "200");
const vendorJson = posterTypes.find((t) => t.endsWith("+json")) as string;
const imageType = typesOf("getPosterImage", "200")[0] as string;
const buyer = deref<JsonObject>(spec, { $ref: "#/components/schemas/Buyer" });
const [firstBranch] = buyer.oneOf as JsonObject[];
const writeOnlyName = Object.entries(
  (firstBranch?.properties ?? {}) as Record<string, JsonObject>,
).find(([, schema]) => schema.writeOnly === true)?.[0] as string;
// The bytes of a PNG's signature: any image of the declared type will do.
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

interface Poster {
  id: number;
  title: string;
  size: string;
}

interface Req {
  query: Record<string, unknown>;
  params: Record<string, unknown>;
  body: unknown;
  reply(status: number, body?: unknown, headers?: Record<string, string>): unknown;
  mediaType: ((status: number) => string | undefined) | undefined;
}

/** The shop's handlers, over posters kept in memory; `calls` counts each handler's runs. */
function shop(calls: Map<string, number>): HandlerSet {
  const posters: Poster[] = [
    { id: 1, title: "Harbour at dawn", size: "large" },
    { id: 2, title: "Fern", size: "small" },
  ];
  const counted =
    (id: string, handler: (req: Req) => unknown) =>
    async (req: Req): Promise<unknown> => {
      calls.set(id, (calls.get(id) ?? 0) + 1);
      return handler(req);
    };
  const find = (params: Req["params"]) => posters.find((p) => p.id === params.posterId);
  const missing = (req: Req) =>
    req.reply(404, { code: "not_found", message: "No such poster.", status: 404 });
  return {
    listPosters: counted("listPosters", ({ query, reply, mediaType }) => {
      const found = posters.filter((p) => query.size === undefined || p.size === query.size);
      if (mediaType?.(200) !== csv) return reply(200, found);
      return reply(
        200,
        ["id,title,size", ...found.map((p) => `${p.id},${p.title},${p.size}`)].join("\n"),
      );
    }),
    createPoster: counted("createPoster", ({ body, reply }) => {
      const poster = { id: posters.length + 1, ...(body as Omit<Poster, "id">) };
      posters.push(poster);
      return reply(201, poster);
    }),
    getPoster: counted("getPoster", (req) => {
      const found = find(req.params);
      return found ? req.reply(200, found) : missing(req);
    }),
    deletePoster: counted("deletePoster", (req) =>
      find(req.params) ? req.reply(204, undefined) : missing(req),
    ),
    getPosterImage: counted("getPosterImage", (req) =>
      find(req.params) ? req.reply(200, png) : missing(req),
    ),
    countView: counted("countView", (req) =>
      find(req.params) ? req.reply(200, undefined) : missing(req),
    ),
    registerBuyer: counted("registerBuyer", ({ body, reply }) => {
      // Answered without the writeOnly property, as the contract says a response is.
      const { [writeOnlyName]: _secret, ...shown } = body as Record<string, unknown>;
      return reply(201, shown);
    }),
  };
}

const modes: Array<{ name: string; env: Record<string, string> }> = [
  { name: "development (answers checked)", env: {} },
  { name: "production (serializers)", env: { NODE_ENV: "production" } },
];

describe.each(modes)("answers in $name", ({ env }) => {
  let app: ScratchApp<KeysOnlyStore>;
  const calls = new Map<string, number>();
  beforeAll(async () => {
    app = await startScratchApp(
      fixtureApplication(loaded, () => shop(calls)),
      { env },
    );
  });
  afterAll(async () => {
    await app?.close();
  });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${app.apiUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${app.key}`, ...(init.headers as Record<string, string>) },
    });

  it("sends a 204 without a body and without Content-Type", async () => {
    const res = await call("/posters/2", { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.headers.get("content-type")).toBeNull();
    expect(await res.text()).toBe("");
  });

  it("sends a 200 declared without content with an empty body and no Content-Type", async () => {
    const res = await call("/posters/1/views", { method: "POST" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBeNull();
    expect(res.headers.get("content-length")).toBe("0");
    expect(await res.text()).toBe("");
  });

  it("answers the first declared type without Accept, and JSON as before", async () => {
    const res = await call("/posters");
    expect(res.status).toBe(200);
    expect(listTypes[0]).toBe("application/json");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("vary")).toMatch(/accept/i);
    const body = (await res.json()) as Poster[];
    expect(body.length).toBeGreaterThan(0);
  });

  it("writes CSV text with its declared type when Accept asks for it", async () => {
    const res = await call("/posters?size=large", { headers: { accept: csv } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(`${csv}; charset=utf-8`);
    const text = await res.text();
    expect(text.split("\n")[0]).toBe("id,title,size");
    expect(Number(res.headers.get("content-length"))).toBe(Buffer.byteLength(text));
  });

  it("follows the client's q-values among the declared types", async () => {
    const res = await call("/posters", {
      headers: { accept: `application/json;q=0.4, ${csv};q=0.9` },
    });
    expect(res.headers.get("content-type")).toContain(csv);
  });

  it("writes the second JSON type as JSON, in that type", async () => {
    const res = await call("/posters/1", { headers: { accept: vendorJson } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(vendorJson);
    expect(((await res.json()) as Poster).id).toBe(1);
  });

  it("writes a Buffer as the declared image type, byte for byte", async () => {
    const res = await call("/posters/1/image", { headers: { accept: "image/*" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(imageType);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(png);
  });

  it("refuses with 406 in the contract's error shape, before the handler runs", async () => {
    const before = calls.get("getPosterImage") ?? 0;
    const res = await call("/posters/1/image", { headers: { accept: "application/json" } });
    expect(res.status).toBe(406);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("vary")).toMatch(/accept/i);
    const body = (await res.json()) as { code: string; message: string; status: number };
    expect(body).toMatchObject({ code: "not_acceptable", status: 406 });
    expect(body.message).toContain(imageType);
    expect(calls.get("getPosterImage") ?? 0).toBe(before);
  });

  it("answers an error of a negotiated operation whatever Accept asks", async () => {
    const res = await call("/posters/99/image", { headers: { accept: imageType } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(((await res.json()) as { code: string }).code).toBe("not_found");
  });

  it("disregards Accept on an operation that answers JSON alone", async () => {
    const res = await call("/posters", {
      method: "POST",
      headers: { accept: "text/html", "content-type": "application/json" },
      body: JSON.stringify({ title: "Moth", size: "small" }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("vary") ?? "").not.toMatch(/accept/i);
  });

  it("takes writeOnly inside a oneOf in the request and leaves it out of the answer", async () => {
    const sent = { kind: "person", name: "Ada", [writeOnlyName]: "correct horse" };
    const res = await call("/buyers", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(sent),
    });
    expect(res.status).toBe(201);
    const { [writeOnlyName]: _secret, ...shown } = sent;
    expect(await res.json()).toEqual(shown);
  });
});
