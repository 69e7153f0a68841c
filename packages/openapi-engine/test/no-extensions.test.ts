/**
 * A contract that declares nothing of the Animal Store (test/fixtures/no-extensions.yaml): no
 * `x-rate-limit-*`, no size extensions, no connection errors, no JSON error schema, no example on
 * any parameter or body. Served through the real start sequence (`startEngine`, warm-up
 * included), unedited: nothing is rate limited and no answer carries rate-limit headers, the
 * documented size defaults apply, the engine's errors are RFC 9457 problem+json naming the field
 * (in development too, where the contract declares its errors without content), warm-up
 * synthesizes a valid request of every operation, and a `$ref` inside a vendor extension is never
 * opened.
 */
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import {
  DEFAULT_REQUEST_BODY_LIMIT_BYTES,
  DEFAULT_REQUEST_TARGET_LIMIT_BYTES,
  deref,
  type JsonObject,
} from "@animal-store/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HandlerSet } from "../src/compiled-operation.js";
import { compileContract } from "../src/contract/contract.js";
import { PROBLEM_JSON } from "../src/errors/problem-details.js";
import { type ScratchServer, startScratchApp, startScratchServer } from "../src/testing/index.js";
import { fixtureApplication, type KeysOnlyStore } from "./support/fixture-app.js";
import { editedFixture, loadFixture } from "./support/fixture-contract.js";

const loaded = loadFixture("no-extensions");
const contract = compileContract(loaded);
const { spec } = contract;
const soils = deref<JsonObject>(spec, { $ref: "#/components/schemas/NewBed/properties/soil" })
  .enum as string[];
const [soil] = soils;

interface Bed {
  id: string;
  name: string;
  soil: string;
}

interface Req {
  query: Record<string, unknown>;
  params: Record<string, unknown>;
  body: unknown;
  reply(status: number, body?: unknown): unknown;
}

/** Every handler call: operationId, query, path values and body, in order. */
type Calls = Array<{ operationId: string; query: unknown; params: unknown; body: unknown }>;

/** The garden's handlers over beds kept in memory, recording each call in `calls`. */
function garden(calls: Calls): HandlerSet {
  const beds: Bed[] = [];
  const recorded =
    (operationId: string, handler: (req: Req) => unknown) =>
    async (req: Req): Promise<unknown> => {
      calls.push({ operationId, query: req.query, params: req.params, body: req.body });
      return handler(req);
    };
  return {
    listBeds: recorded("listBeds", ({ query, reply }) =>
      reply(
        200,
        beds.filter((b) => b.soil === query.soil),
      ),
    ),
    plantBed: recorded("plantBed", ({ body, reply }) => {
      const bed = { id: randomUUID(), ...(body as Omit<Bed, "id">) };
      beds.push(bed);
      return reply(201, bed);
    }),
    getBed: recorded("getBed", ({ params, reply }) => {
      const bed = beds.find((b) => b.id === params.bedId);
      return bed ? reply(200, bed) : reply(404, undefined);
    }),
    clearBed: recorded("clearBed", ({ params, reply }) => {
      const at = beds.findIndex((b) => b.id === params.bedId);
      if (at === -1) return reply(404, undefined);
      beds.splice(at, 1);
      return reply(204, undefined);
    }),
    exportBeds: recorded("exportBeds", ({ reply }) =>
      reply(200, ["id,name,soil", ...beds.map((b) => `${b.id},${b.name},${b.soil}`)].join("\n")),
    ),
  };
}

const RATE_LIMIT_HEADER = /ratelimit/i;
/** Every header name of an answer that speaks of rate limits. */
const rateLimitHeaders = (res: Response) =>
  [...res.headers.keys()].filter((name) => RATE_LIMIT_HEADER.test(name));

describe("a contract without any extension of the Animal Store, started unedited", () => {
  let scratch: ScratchServer<KeysOnlyStore>;
  const calls: Calls = [];
  let warmUpCalls: Calls = [];
  beforeAll(async () => {
    // A Redis nobody listens on: with nothing to count, the engine never connects to it.
    scratch = await startScratchServer(
      fixtureApplication(loaded, () => garden(calls)),
      { name: "no-extensions", env: { REDIS_URL: "redis://127.0.0.1:1" } },
    );
    warmUpCalls = [...calls];
  });
  afterAll(async () => {
    await scratch?.close();
  });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${scratch.apiUrl}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${scratch.key}`,
        ...(init.headers as Record<string, string>),
      },
    });
  const plant = (body: unknown) =>
    call("/beds", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  async function expectProblem(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe(PROBLEM_JSON);
    const problem = (await res.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ type: "about:blank", status, code });
    expect(typeof problem.title).toBe("string");
    expect(typeof problem.detail).toBe("string");
    return problem as { detail: string };
  }

  it("warmed up every operation with a synthesized request its validation accepted", () => {
    expect(new Set(warmUpCalls.map((c) => c.operationId))).toEqual(
      new Set(contract.operations.map((op) => op.operationId)),
    );
    const listed = warmUpCalls.find((c) => c.operationId === "listBeds");
    expect(soils).toContain((listed?.query as { soil?: string } | undefined)?.soil);
    const planted = warmUpCalls.find((c) => c.operationId === "plantBed");
    expect(planted?.body).toMatchObject({ soil: expect.any(String), name: expect.any(String) });
  });

  it("serves valid requests: a list, a create, a read, a CSV export and a 204", async () => {
    const made = await plant({ name: "Herbs", soil });
    expect(made.status).toBe(201);
    const bed = (await made.json()) as Bed;
    const list = await call(`/beds?soil=${soil}&since=2024-02-29`);
    expect(list.status).toBe(200);
    expect((await list.json()) as Bed[]).toContainEqual(bed);
    expect((await call(`/beds/${bed.id}`)).status).toBe(200);
    const exported = await call("/exports/beds");
    expect(exported.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await exported.text()).toContain(bed.id);
    const cleared = await call(`/beds/${bed.id}`, { method: "DELETE" });
    expect(cleared.status).toBe(204);
    expect(cleared.headers.get("content-type")).toBeNull();
  });

  it("counts nothing: no answer carries rate-limit headers, and no limiter is asked", async () => {
    const answers = await Promise.all([
      call(`/beds?soil=${soil}`),
      call("/nowhere"),
      fetch(`${scratch.url}/healthz`),
    ]);
    for (const res of answers) expect(rateLimitHeaders(res)).toEqual([]);
    // Not "degraded": the configured Redis is neither used nor probed.
    const ready = await fetch(`${scratch.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  it("answers its own errors as problem+json naming the field, where the contract has no error schema", async () => {
    const missing = await expectProblem(await call("/beds"), 400, "validation_failed");
    expect(missing.detail).toContain("soil");
    const unknown = await expectProblem(
      await call(`/beds?soil=${soil}&colour=red`),
      400,
      "validation_failed",
    );
    expect(unknown.detail).toContain("colour");
    // The contract declares plantBed's 4XX without content: the engine's 400 and 415 are still
    // answered (never turned into 500 by the development checker).
    const bad = await expectProblem(await plant({ name: "", soil }), 400, "validation_failed");
    expect(bad.detail).toContain("name");
    await expectProblem(
      await call("/beds", {
        method: "POST",
        headers: { "content-type": "application/xml" },
        body: "<bed/>",
      }),
      415,
      "unsupported_media_type",
    );
    await expectProblem(await call(`/beds/${soil}`), 400, "validation_failed");
    await expectProblem(await call("/nowhere"), 404, "not_found");
    await expectProblem(await call("/exports/beds", { method: "PUT" }), 405, "method_not_allowed");
  });

  it("refuses a request target over the documented default limit with 414, as problem+json", async () => {
    const long = `/beds?soil=${soil}&pad=${"a".repeat(DEFAULT_REQUEST_TARGET_LIMIT_BYTES)}`;
    await expectProblem(await call(long), 414, "uri_too_long");
  });

  it("refuses a declared body over the documented default limit with 413, as problem+json", async () => {
    const { status, type, text } = await new Promise<{
      status: number;
      type: string;
      text: string;
    }>((resolve, reject) => {
      const req = request(`${scratch.apiUrl}/beds`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${scratch.key}`,
          "content-type": "application/json",
          "content-length": String(DEFAULT_REQUEST_BODY_LIMIT_BYTES + 1),
        },
      });
      req.on("response", (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"] ?? "", text }),
        );
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(413);
    expect(type).toBe(PROBLEM_JSON);
    expect(JSON.parse(text)).toMatchObject({ status: 413, code: "payload_too_large" });
  });
});

describe("a contract without rate limits, in-process", () => {
  it("counts nothing: every answer is served, none with rate-limit headers", async () => {
    const app = await startScratchApp(fixtureApplication(loaded, () => garden([])));
    try {
      const headers = { authorization: `Bearer ${app.key}` };
      const answers = await Promise.all([
        fetch(`${app.apiUrl}/beds?soil=${soil}`, { headers }),
        fetch(`${app.apiUrl}/beds?soil=${soil}`, { method: "OPTIONS", headers }),
        fetch(`${app.apiUrl}/nowhere`, { headers }),
        fetch(`${app.url}/healthz`),
      ]);
      expect(answers.map((res) => res.status)).toEqual([200, 204, 404, 200]);
      for (const res of answers) expect(rateLimitHeaders(res)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe("a vendor extension holding a $ref", () => {
  it("is never resolved as a file: the contract starts and serves", async () => {
    const withTopics = editedFixture((edited) => {
      edited.info["x-topics"] = { $ref: "./no-such-topics.md" };
      (edited.paths?.["/beds"] as JsonObject)["x-notes"] = { $ref: "../no-such-notes.md#/a" };
    }, "no-extensions");
    const scratch = await startScratchServer(
      fixtureApplication(withTopics, () => garden([])),
      { name: "extension-refs", spec: withTopics },
    );
    try {
      const res = await fetch(`${scratch.apiUrl}/beds?soil=${soil}`, {
        headers: { authorization: `Bearer ${scratch.key}` },
      });
      expect(res.status).toBe(200);
    } finally {
      await scratch.close();
    }
  });
});
