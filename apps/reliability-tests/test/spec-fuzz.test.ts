/**
 * Spec-driven property tests: for every operation of the contract, requests generated from its
 * schemas (valid, and with one part broken), plus a table of hostile requests, against a real
 * server (startServer, SQLite). Nothing may get a 5xx or hang; every response must validate
 * against the spec; valid requests get their documented success, broken ones 400 with `Error`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadBundledSpec } from "@animal-store/openapi";
import { compileContract, type RunningServer, startServer } from "@animal-store/server";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractLimits } from "../src/contract-limits.js";
import { hostileCases } from "../src/hostile-requests.js";
import { jsonBody, type RawResponse, send } from "../src/http-client.js";
import { type GeneratedRequest, invalidRequest, validRequest } from "../src/request-generator.js";
import { listOperations, loadSpec, type OperationSpec } from "../src/spec.js";
import { createSpecValidator } from "../src/spec-validator.js";

const limits = contractLimits();

const doc = loadSpec();
const operations = listOperations(doc);
const { validate, checkResponse } = createSpecValidator(doc);
const byId = (id: string): OperationSpec => {
  const op = operations.find((o) => o.operationId === id);
  if (!op) throw new Error(`no operation ${id}`);
  return op;
};
/**
 * What a valid request may get: a documented success, or, for an operation that reads a
 * resource by path parameters, its documented 404 (a generated id nobody created).
 */
function acceptedForValid(op: OperationSpec): number[] {
  const statuses = Object.keys(op.responses);
  const success = statuses.filter((s) => s.startsWith("2")).map(Number);
  const byId = op.parameters.some((p) => p.in === "path") && statuses.includes("404");
  return byId ? [...success, 404] : success;
}
/** The bearer challenge's realm, as the server compiles it from the contract. */
const { realm } = compileContract(loadBundledSpec());

/** Answers for paths outside the contract are still the contract's Error body. */
const ERROR_SCHEMA = { $ref: "#/components/schemas/Error" };
const RUNS = { valid: 60, invalid: 80, auth: 12 };

let server: RunningServer;
let key: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "rel-fuzz-"));
  server = await startServer({
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "silent",
    DATABASE_URL: `file:${join(dataDir, "fuzz.db")}`,
  });
  // Enterprise limits high enough that rate limiting never decides a generated case.
  key = await server.createKey({
    plan: limits.customPlan,
    name: "fuzz",
    perMinute: 1e9,
    perDay: 1e9,
  });
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(req: GeneratedRequest, auth: string | null = `Bearer ${key}`) {
  const headers = { ...req.headers, ...(auth === null ? {} : { authorization: auth }) };
  const request = { method: req.method, target: `/v1${req.target}`, headers };
  return send(server.url, req.body === undefined ? request : { ...request, body: req.body });
}

function expectHonoursSpec(op: OperationSpec, res: RawResponse, what: string) {
  expect(res.status, `${what}: ${res.bodyText.slice(0, 300)}`).toBeLessThan(500);
  expect(checkResponse(op, res), what).toEqual([]);
}

describe("spec-driven property tests (SQLite, in-process server)", () => {
  for (const op of operations) {
    it(`${op.operationId}: valid requests get the documented success`, async () => {
      await fc.assert(
        fc.asyncProperty(validRequest(op, doc), async (req) => {
          const res = await call(req);
          expectHonoursSpec(op, res, `${req.method} ${req.target}`);
          expect(acceptedForValid(op), `${req.method} ${req.target}`).toContain(res.status);
          if (op.operationId === "createPet") {
            const { id, ...rest } = jsonBody<{ id: number }>(res);
            expect(rest).toEqual(req.sentBody);
            const again = await send(server.url, {
              method: "GET",
              target: `/v1/pets/${id}`,
              headers: { authorization: `Bearer ${key}` },
            });
            expectHonoursSpec(byId("getPet"), again, `GET /pets/${id}`);
            expect(jsonBody(again)).toEqual({ id, ...rest });
          }
          if (op.operationId === "listPets") {
            const url = new URL(req.target, "http://x");
            const pets = jsonBody<{ id: number; status?: string }[]>(res);
            expect(pets.length).toBeLessThanOrEqual(Number(url.searchParams.get("limit") ?? 20));
            const ids = pets.map((p) => p.id);
            expect(ids).toEqual([...ids].sort((a, b) => a - b));
            const status = url.searchParams.get("status");
            if (status) for (const p of pets) expect(p.status).toBe(status);
          }
        }),
        { numRuns: RUNS.valid },
      );
    });

    const invalid = invalidRequest(op, doc, validate);
    it.skipIf(invalid === null)(
      `${op.operationId}: broken requests get 400 with the Error body`,
      async () => {
        if (!invalid) return;
        await fc.assert(
          fc.asyncProperty(invalid, async (req) => {
            const res = await call(req);
            expectHonoursSpec(op, res, `${req.broken} → ${req.method} ${req.target}`);
            expect(res.status, req.broken).toBe(400);
            expect(jsonBody<{ code: string }>(res).code).toBe("validation_failed");
          }),
          { numRuns: RUNS.invalid },
        );
      },
    );

    it(`${op.operationId}: missing or invalid credentials get 401 with the bearer challenge`, async () => {
      const credentials = fc.oneof(
        fc.constant({ header: null, code: "unauthorized" }),
        fc
          .constantFrom("Basic dXNlcjpwYXNz", "Token abc")
          .map((h) => ({ header: h, code: "unauthorized" })),
        fc
          .stringMatching(/^[A-Za-z0-9._~+/-]{1,60}$/)
          .map((token) => ({ header: `Bearer ${token}`, code: "invalid_api_key" })),
      );
      await fc.assert(
        fc.asyncProperty(validRequest(op, doc), credentials, async (req, cred) => {
          const res = await call(req, cred.header);
          expectHonoursSpec(op, res, `${cred.header} → ${req.method} ${req.target}`);
          expect(res.status).toBe(401);
          expect(jsonBody<{ code: string }>(res).code).toBe(cred.code);
          expect(res.headers.get("www-authenticate")).toMatch(
            new RegExp(`^Bearer realm="${realm}"`),
          );
        }),
        { numRuns: RUNS.auth },
      );
    });
  }
});

describe("hostile requests", () => {
  const info = doc.info as { "x-request-body-limit-bytes": number };
  const petName = (doc.components.schemas as Record<string, { maxLength: number }>).PetName;
  const edges = {
    bodyLimit: info["x-request-body-limit-bytes"],
    nameMaxLength: petName?.maxLength ?? 0,
  };
  for (const hostile of hostileCases(edges)) {
    it(hostile.name, async () => {
      const headers = { ...hostile.request.headers, authorization: `Bearer ${key}` };
      const res = await send(server.url, { ...hostile.request, headers });
      const what = `${hostile.name}: ${res.status} ${res.bodyText.slice(0, 200)}`;
      expect(res.status, what).toBeLessThan(500);
      if (hostile.operationId)
        expect(checkResponse(byId(hostile.operationId), res), what).toEqual([]);
      else {
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        expect(validate(ERROR_SCHEMA, jsonBody(res)), what).toEqual([]);
      }
      if (hostile.expect !== "documented") {
        expect(res.status, what).toBe(hostile.expect.status);
        const body = jsonBody<{ code: string; status: number; name?: string }>(res);
        if (res.status >= 400) expect(body.status).toBe(res.status);
        else expect(JSON.parse(String(hostile.request.body))).toEqual({ ...body, id: undefined });
        if (hostile.expect.code) expect(body.code, what).toBe(hostile.expect.code);
      }
    });
  }

  it("left no prototype polluted in the server's process", () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});
