import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import { compileContract } from "../contract/contract.js";
import { EngineError } from "../errors.js";
import {
  type ApiKeyRecord,
  type Caller,
  identifyCaller,
  type KeyLookup,
  requireCredential,
} from "./credentials.js";

const contract = compileContract(loadFixture());
const challenge = `Bearer realm="${contract.realm}"`;

const record: ApiKeyRecord = {
  id: "k1",
  name: "web",
  plan: contract.rateLimit.planNames[0] as string,
  perMinute: null,
  perDay: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  revokedAt: null,
};

async function identify(
  authorization: string | undefined,
  lookup: KeyLookup = async (key) => (key === "good-key" ? record : null),
): Promise<Caller> {
  const rawHeaders = authorization === undefined ? [] : ["Authorization", authorization];
  const req = {
    headers: { authorization },
    rawHeaders,
    ip: "10.0.0.1",
    socket: {},
  } as unknown as Request;
  const res = { locals: {} } as unknown as Response<unknown, { caller: Caller }>;
  await new Promise<void>((resolve) => identifyCaller(lookup)(req, res, () => resolve()));
  return res.locals.caller;
}

/** What requireCredential passes on for `caller` where a credential is (or is not) `required`. */
function reject(caller: Caller, required = true): unknown {
  let passed: unknown = "not called";
  requireCredential({ realm: contract.realm, required: () => required })(
    {} as Request,
    { locals: { caller } } as unknown as Response<unknown, { caller: Caller }>,
    ((err?: unknown) => {
      passed = err;
    }) as NextFunction,
  );
  return passed;
}

describe("identifyCaller", () => {
  it("accepts a known bearer key, case-insensitively on the scheme", async () => {
    expect(await identify("Bearer good-key")).toEqual({ kind: "key", key: record });
    expect(await identify("bearer good-key")).toEqual({ kind: "key", key: record });
  });

  it("treats a missing header or another scheme as missing", async () => {
    for (const header of [undefined, "", "Basic Z29vZC1rZXk=", "Bearerx good-key"]) {
      expect(await identify(header)).toEqual({
        kind: "anonymous",
        address: "10.0.0.1",
        failure: "missing",
      });
    }
  });

  it("treats an unknown or malformed bearer token as invalid", async () => {
    for (const header of ["Bearer other", "Bearer", "Bearer good key", "Bearer \u00e9t\u00e9"]) {
      expect((await identify(header)).kind === "anonymous" && (await identify(header))).toEqual({
        kind: "anonymous",
        address: "10.0.0.1",
        failure: "invalid",
      });
    }
  });
});

describe("requireCredential", () => {
  it("passes a key caller through", () => {
    expect(reject({ kind: "key", key: record })).toBeUndefined();
  });

  it("answers 401 unauthorized with the bare challenge when the key is missing", () => {
    const err = reject({ kind: "anonymous", address: "x", failure: "missing" }) as EngineError;
    expect(err).toBeInstanceOf(EngineError);
    expect([err.status, err.code]).toEqual([401, "unauthorized"]);
    expect(err.headers["WWW-Authenticate"]).toBe(challenge);
  });

  it("answers 401 invalid_api_key with error=invalid_token when the key is bad", () => {
    const err = reject({ kind: "anonymous", address: "x", failure: "invalid" }) as EngineError;
    expect([err.status, err.code]).toEqual([401, "invalid_api_key"]);
    expect(err.headers["WWW-Authenticate"]).toBe(`${challenge}, error="invalid_token"`);
  });

  it("takes the realm from the contract's security scheme", () => {
    const schemes = loadFixture().spec.components?.securitySchemes as Record<
      string,
      { "x-realm"?: string }
    >;
    expect(contract.realm).toBe(schemes.keyAuth?.["x-realm"]);
  });

  it("answers 401 invalid_api_key with error=invalid_request for two Authorization headers", () => {
    const err = reject({ kind: "anonymous", address: "x", failure: "ambiguous" }) as EngineError;
    expect([err.status, err.code]).toEqual([401, "invalid_api_key"]);
    expect(err.headers["WWW-Authenticate"]).toBe(`${challenge}, error="invalid_request"`);
  });

  it("lets any caller through where no credential is required (security: [])", () => {
    for (const failure of ["missing", "invalid", "ambiguous"] as const) {
      expect(reject({ kind: "anonymous", address: "x", failure }, false)).toBe(undefined);
    }
  });

  it("answers the key store's failure where a key is needed, never where none is", async () => {
    const failure = new Error("store down");
    const caller = await identify("Bearer good-key", () => Promise.reject(failure));
    expect(caller).toEqual({
      kind: "anonymous",
      address: "10.0.0.1",
      failure: "unverified",
      error: failure,
    });
    expect(reject(caller)).toBe(failure);
    expect(reject(caller, false)).toBeUndefined();
    const thrown = await identify("Bearer good-key", () => {
      throw failure;
    });
    expect(reject(thrown)).toBe(failure);
  });
});
