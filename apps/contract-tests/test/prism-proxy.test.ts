// Contract gate 1: the real server behind a real `prism proxy`, driven through every operation and
// every documented status. A valid request goes through `prism proxy --errors`, which turns any
// violation of the contract by the server into an error; a deliberately invalid request goes
// through a second proxy without --errors (with --errors Prism answers an invalid request itself,
// so the server would never see it) and must carry no response violation. The last test checks
// against the bundled spec that every documented status of every operation was exercised.

import { deref } from "@animal-store/openapi";
import { linksBesidesNext, nextLinkTarget } from "@animal-store/test-support/links";
import {
  pagedList,
  parameterless,
  standingLink,
  statusesOf,
} from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopAllChildren } from "./support/child-process.js";
import {
  CoverageLedger,
  documentedStatuses,
  type Expected,
  expectConforming,
  expectConformingAnswerToBadRequest,
} from "./support/conformance.js";
import { exchange, type ScenarioRequest } from "./support/exchange.js";
import { type FaultyServer, startFaultyServer } from "./support/faulty-server.js";
import { type PrismProxy, startPrismProxy, unmatchedStatusWarnings } from "./support/prism.js";
import { validateResponseWithPrism } from "./support/prism-validator.js";
import {
  contract,
  exampleScenario,
  pagedOperation,
  securedOperations,
  sunsetOperations,
} from "./support/scenarios.js";
import { type GateServer, startGateServer } from "./support/servers.js";

// The ban starts only after the key has drawn its 429 on every operation, however many there are.
const BAN_THRESHOLD = contract.operations.length + 1;
const plans = contract.rateLimit;
const customPlan = plans.planNames.find((name) => plans.plans[name]?.custom) as string;
const roomyPlan = [...plans.planNames]
  .filter((name) => !plans.plans[name]?.custom)
  .sort((a, b) => (plans.plans[b]?.perMinute ?? 0) - (plans.plans[a]?.perMinute ?? 0))[0] as string;
const expect_ = (op: { operationId: string }, status: number, code?: string): Expected => ({
  operation: op.operationId,
  status,
  code,
});
let server: GateServer;
let faulty: FaultyServer;
let strict: PrismProxy;
let lenient: PrismProxy;
let faultyStrict: PrismProxy;
let key: string;
const ledger = new CoverageLedger();
/** A pet's status, as the server's store types it (from the generated types). */
type PetStatus = NonNullable<Parameters<GateServer["server"]["store"]["createPet"]>[0]["status"]>;
const petStatuses = deref<{ enum: PetStatus[] }>(contract.spec, {
  $ref: "#/components/schemas/PetStatus",
}).enum;

beforeAll(async () => {
  [server, faulty] = await Promise.all([
    startGateServer({
      RATE_LIMIT_BAN_THRESHOLD: String(BAN_THRESHOLD),
      RATE_LIMIT_BAN_SECONDS: "600",
    }),
    startFaultyServer(),
  ]);
  [strict, lenient, faultyStrict] = await Promise.all([
    startPrismProxy(server.apiUrl, true),
    startPrismProxy(server.apiUrl, false),
    startPrismProxy(faulty.apiUrl, true),
  ]);
  key = await server.server.createKey({ plan: roomyPlan, name: "prism gate" });
}, 120_000);

afterAll(async () => {
  await stopAllChildren();
  await Promise.allSettled([server?.close(), faulty?.close()]);
});

/** A valid request through `prism proxy --errors`: no violation at all, and the expected answer. */
async function valid(
  expected: Expected,
  label: string,
  request: ScenarioRequest,
  via = () => strict,
) {
  const found = await exchange(via().url, `${expected.operation} ${label}`, request);
  expectConforming(found, expected);
  ledger.record(expected);
  return found;
}

/** A deliberately invalid request through the proxy without --errors. */
async function invalid(expected: Expected, label: string, request: ScenarioRequest) {
  const found = await exchange(lenient.url, `${expected.operation} ${label}`, request);
  expectConformingAnswerToBadRequest(found, expected);
  ledger.record(expected);
  return found;
}

const list = (status: number, code?: string): Expected => ({ operation: "listPets", status, code });
const create = (status: number, code?: string): Expected => ({
  operation: "createPet",
  status,
  code,
});
const get = (status: number, code?: string): Expected => ({ operation: "getPet", status, code });

describe("valid requests through prism proxy --errors", () => {
  it("createPet 201, then getPet 200 and the filtered listPets 200 return it", async () => {
    const pet = { name: "Rex", categoryId: 1, status: "sold" };
    const created = await valid(create(201), "with status", {
      path: "/pets",
      apiKey: key,
      json: pet,
    });
    const id = (created.body as { id: number }).id;
    expect(created.body).toEqual({ id, ...pet });
    const fetched = await valid(get(200), "by id", { path: `/pets/${id}`, apiKey: key });
    expect(fetched.body).toEqual({ id, ...pet });
    const sold = await valid(list(200), "status=sold", {
      path: `/pets?status=sold&limit=${pagedList().max}`,
      apiKey: key,
    });
    expect(sold.body).toContainEqual({ id, ...pet });
  });

  it("createPet 201 without status: no status comes back", async () => {
    const found = await valid(create(201), "without status", {
      path: "/pets",
      apiKey: key,
      json: { name: "Nemo", categoryId: 3 },
    });
    expect(found.body).not.toHaveProperty("status");
  });

  it("listPets 200 without filter and at both limit bounds", async () => {
    await valid(list(200), "no filter", { path: "/pets", apiKey: key });
    const one = await valid(list(200), "limit=1", { path: "/pets?limit=1", apiKey: key });
    expect(one.body).toHaveLength(1);
    await valid(list(200), `limit=${pagedList().max}&status=pending`, {
      path: `/pets?limit=${pagedList().max}&status=pending`,
      apiKey: key,
    });
  });

  it("listPets pages: each next link followed through the proxy, every pet once, no link on the last page", async () => {
    const { cursorParameter } = pagedOperation();
    const status = petStatuses.at(-1) as PetStatus;
    for (let i = 0; i < 5; i++) {
      await server.server.store.createPet({ name: `page${i}`, categoryId: 1, status });
    }
    const expected = (await server.server.store.listPets({ limit: 1000, status })).map((p) => p.id);
    const seen: number[] = [];
    let path: string | undefined = `/pets?status=${status}&limit=2`;
    for (let n = 1; path !== undefined; n++) {
      const found = await valid(list(200), `page ${n}`, { path, apiKey: key });
      seen.push(...(found.body as { id: number }[]).map((pet) => pet.id));
      // The next link among the field's links: a deprecated list carries its successor's too.
      const link = found.headers.get("link");
      expect(linksBesidesNext(link), `page ${n}: ${link}`).toEqual(
        linksBesidesNext(standingLink(pagedList().op) ?? ""),
      );
      const target = nextLinkTarget(link);
      if (target !== undefined)
        expect(new URLSearchParams(target).get(cursorParameter)).toBeTruthy();
      // The link is relative to the page's URL: here, the proxy's.
      path = target === undefined ? undefined : `/pets${target}`;
    }
    expect(seen).toEqual(expected);
    expect(seen.length).toBeGreaterThan(4);
  });

  it("listPets 400 for a cursor it did not issue, and for one made for another filter", async () => {
    const { cursorParameter, codes } = pagedOperation();
    const [status, other] = petStatuses as [PetStatus, PetStatus];
    for (let i = 0; i < 2; i++) {
      await server.server.store.createPet({ name: `cursor${i}`, categoryId: 1, status });
    }
    const first = await valid(list(200), "for a cursor", {
      path: `/pets?status=${status}&limit=1`,
      apiKey: key,
    });
    const target = nextLinkTarget(first.headers.get("link")) ?? "";
    const cursor = new URLSearchParams(target.slice(1)).get(cursorParameter) ?? "";
    expect(cursor).not.toBe("");
    const at = (query: string) => ({ path: `/pets?${query}`, apiKey: key });
    const bad = `${cursorParameter}=${cursor.slice(0, -2)}`;
    await valid(list(400, codes.invalid), "truncated cursor", at(`status=${status}&${bad}`));
    await valid(list(400, codes.invalid), "made-up cursor", at(`${cursorParameter}=abc`));
    const moved = `${cursorParameter}=${cursor}`;
    await valid(list(400, codes.otherFilter), "another filter", at(`status=${other}&${moved}`));
    await valid(list(400, codes.otherFilter), "no filter", at(moved));
  });

  // An operation that takes nothing (no parameter, no body) has no scenario of its own to write:
  // its example request is its success, and a query parameter it does not take its 400 (the
  // server refuses one on every operation; Prism does not count it as a request violation, so it
  // goes through the strict proxy and only the answer is checked).
  const takesNothing = parameterless("GET").filter((op) => op.parameters.length === 0);

  it.each(takesNothing.map((op) => [op.operationId, op] as const))(
    "%s (takes nothing): its success for its example request, 400 for a parameter it does not take",
    async (_id, op) => {
      const served = contract.operations.find((o) => o.operationId === op.operationId);
      if (!served) throw new Error(`${op.operationId} is in the spec but not served`);
      const success = statusesOf(op).find((status) => status >= 200 && status < 300);
      if (success === undefined) throw new Error(`${op.operationId} documents no success status`);
      await valid(expect_(op, success), "example request", exampleScenario(served, key));
      if (statusesOf(op).includes(400)) {
        const request = exampleScenario(served, key);
        await valid(expect_(op, 400), "a query parameter it does not take", {
          ...request,
          path: `${request.path}?notAParameter=1`,
        });
      }
    },
  );

  it("getPet 404 not_found for an id nobody has", async () => {
    await valid(get(404, "not_found"), "unknown id", {
      path: "/pets/9007199254740991",
      apiKey: key,
    });
  });

  it("401 invalid_api_key on every operation that asks for a key, for a key never issued", async () => {
    expect(securedOperations.length).toBeGreaterThan(0);
    for (const op of securedOperations) {
      await valid(expect_(op, 401, "invalid_api_key"), "unknown key", {
        ...exampleScenario(op, "never-issued-key"),
      });
    }
  });
});

describe("rate limits through prism proxy --errors", () => {
  it("a key allowed 1 request a minute and a day: 200, then 429 on every operation, then banned", async () => {
    const apiKey = await server.server.createKey({
      plan: customPlan,
      name: "tiny",
      perMinute: 1,
      perDay: 1,
    });
    // A read of a path without parameters answers 200 to its example request, deprecated or not
    // (before its sunset): any operation of the spec may be the deprecated one.
    const first = contract.operations.find((op) => op.method === "GET" && !op.path.includes("{"));
    if (!first) throw new Error("the contract has no GET operation without path parameters");
    await valid(expect_(first, 200), "first request of a tiny key", exampleScenario(first, apiKey));
    for (const op of contract.operations) {
      const limited = await valid(
        expect_(op, 429, "rate_limited"),
        "over the limit",
        exampleScenario(op, apiKey),
      );
      expect(limited.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    }
    const codes: string[] = [];
    for (
      let attempt = 0;
      attempt < BAN_THRESHOLD + 3 && codes.at(-1) !== "api_key_banned";
      attempt += 1
    ) {
      const found = await exchange(strict.url, `${first.operationId} while limited`, {
        ...exampleScenario(first, apiKey),
      });
      expectConforming(found, expect_(first, 429));
      codes.push((found.body as { code: string }).code);
    }
    expect(codes.at(-1), codes.join(", ")).toBe("api_key_banned");
  });
});

describe("invalid requests through prism proxy (no --errors), answers still conform", () => {
  const bad: [Expected, string, ScenarioRequest][] = [
    [
      list(400, "validation_failed"),
      `limit=${pagedList().max + 1}`,
      { path: `/pets?limit=${pagedList().max + 1}` },
    ],
    [list(400, "validation_failed"), "limit=0", { path: "/pets?limit=0" }],
    [list(400, "validation_failed"), "status=lost", { path: "/pets?status=lost" }],
    [create(400, "validation_failed"), "without name", { path: "/pets", json: { categoryId: 1 } }],
    [
      create(400, "validation_failed"),
      "with an id",
      { path: "/pets", json: { id: 7, name: "Rex", categoryId: 1 } },
    ],
    [
      create(400, "validation_failed"),
      "status lost",
      { path: "/pets", json: { name: "Rex", categoryId: 1, status: "lost" } },
    ],
    [get(400, "validation_failed"), "petId=abc", { path: "/pets/abc" }],
    [get(400, "validation_failed"), "petId=0", { path: "/pets/0" }],
  ];
  const titled = bad.map(
    ([e, label, r]) => [`${e.operation} ${e.status} ${label}`, e, label, r] as const,
  );
  it.each(titled)("%s", async (_title, expected, label, request) => {
    await invalid(expected, label, { ...request, apiKey: key });
  });

  it("413 and 415 on every operation that takes a body: over the spec's limit, and not JSON", async () => {
    const withBody = contract.operations.filter((op) => op.requestBody);
    expect(withBody.length).toBeGreaterThan(0);
    for (const op of withBody) {
      const { method, path } = exampleScenario(op, key);
      const over = "x".repeat(contract.bodyLimitBytes + 1);
      await invalid(expect_(op, 413, "payload_too_large"), "a body over the limit", {
        ...(method ? { method } : {}),
        path,
        apiKey: key,
        raw: { contentType: "application/json", text: JSON.stringify(over) },
      });
      await invalid(expect_(op, 415, "unsupported_media_type"), "text/plain", {
        ...(method ? { method } : {}),
        path,
        apiKey: key,
        raw: { contentType: "text/plain", text: "x" },
      });
    }
  });

  it("401 unauthorized on every operation that asks for a key, without a credential", async () => {
    for (const op of securedOperations) {
      await invalid(expect_(op, 401, "unauthorized"), "no key", exampleScenario(op));
    }
  });

  it("createPet 400 malformed_json (Prism answers malformed JSON itself: checked with its validator)", async () => {
    const response = await fetch(`${server.apiUrl}/pets`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: '{"name": "Rex", "categoryId": ',
    });
    const body = await response.json();
    const violations = await validateResponseWithPrism("createPet", {
      status: response.status,
      headers: response.headers,
      body,
    });
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
    expect(body).toMatchObject({ code: "malformed_json", status: 400 });
    expect(response.status).toBe(400);
  });
});

describe("server-side failures through prism proxy --errors", () => {
  const faultyCase = (expected: Expected, label: string, request: ScenarioRequest) =>
    valid(expected, label, { ...request, apiKey: faulty.key }, () => faultyStrict);

  it("410 gone on every operation with a sunset, once the clock is past it", async () => {
    faulty.set({ afterSunset: true });
    try {
      for (const op of sunsetOperations) {
        const found = await faultyCase(
          expect_(op, 410, "gone"),
          "after sunset",
          exampleScenario(op),
        );
        expect(found.headers.get("sunset")).toBeTruthy();
      }
    } finally {
      faulty.set({ afterSunset: false });
    }
  });

  it.each(["unexpected", "unavailable"] as const)(
    "500/503 on every operation when the store fails (%s)",
    async (failure) => {
      const [status, code] =
        failure === "unexpected" ? [500, "internal_error"] : [503, "service_unavailable"];
      faulty.set({ storeFailure: failure });
      try {
        for (const op of contract.operations) {
          await faultyCase(expect_(op, status, code), `store ${failure}`, exampleScenario(op));
        }
      } finally {
        faulty.set({ storeFailure: "none" });
      }
    },
  );
});

describe("coverage", () => {
  it("Prism never warned that an answer's status was not documented", () => {
    for (const proxy of [strict, lenient, faultyStrict]) {
      expect(unmatchedStatusWarnings(proxy)).toEqual([]);
    }
  });

  it("every documented status of every operation was exercised above", () => {
    expect(documentedStatuses().length).toBeGreaterThan(0);
    expect(ledger.missing()).toEqual([]);
  });
});
