import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { loadFixture } from "../../test/support/fixture-contract.js";
import { compileContract } from "../contract/contract.js";
import { EngineError } from "../errors.js";
import {
  type ApiKeyRecord,
  type Caller,
  type CallerLocals,
  identifyCaller,
  type KeyLookup,
  requireCredential,
} from "./credentials.js";
import { compileContractSecurity } from "./security.js";

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

/** The fixture's document security compiled over `lookup`, as the app compiles it. */
function documentSecurity(lookup: KeyLookup) {
  return compileContractSecurity(contract.spec, contract.operations, {
    keyLookup: lookup,
  }).forDocument();
}

async function identifyLocals(
  authorization: string | undefined,
  lookup: KeyLookup = async (key) => (key === "good-key" ? record : null),
): Promise<CallerLocals> {
  const rawHeaders = authorization === undefined ? [] : ["Authorization", authorization];
  const req = {
    headers: { authorization },
    rawHeaders,
    ip: "10.0.0.1",
    socket: {},
  } as unknown as Request;
  const res = { locals: {} } as unknown as Response<unknown, CallerLocals>;
  await new Promise<void>((resolve) =>
    identifyCaller(documentSecurity(lookup).check)(req, res, () => resolve()),
  );
  return res.locals;
}

async function identify(authorization: string | undefined, lookup?: KeyLookup): Promise<Caller> {
  return (await identifyLocals(authorization, lookup)).caller;
}

/** What requireCredential passes on for `authorization` (two Authorization lines with `twice`). */
async function reject(
  authorization: string | undefined,
  lookup?: KeyLookup,
  twice = false,
): Promise<unknown> {
  const locals = await identifyLocals(authorization, lookup);
  if (twice) {
    const req = {
      headers: { authorization },
      rawHeaders: ["Authorization", authorization, "Authorization", authorization],
      ip: "10.0.0.1",
      socket: {},
    } as unknown as Request;
    const res = { locals } as unknown as Response<unknown, CallerLocals>;
    await new Promise<void>((resolve) =>
      identifyCaller(documentSecurity(async () => record).check)(req, res, () => resolve()),
    );
  }
  let passed: unknown = "not called";
  requireCredential(documentSecurity(async () => null).refuse)(
    {} as Request,
    { locals } as unknown as Response<unknown, CallerLocals>,
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
  it("passes a key caller through", async () => {
    expect(await reject("Bearer good-key")).toBeUndefined();
  });

  it("answers 401 unauthorized with the bare challenge when the key is missing", async () => {
    const err = (await reject(undefined)) as EngineError;
    expect(err).toBeInstanceOf(EngineError);
    expect([err.status, err.code]).toEqual([401, "unauthorized"]);
    expect(err.headers["WWW-Authenticate"]).toBe(challenge);
    expect(err.message).toBe("Missing credentials: send Authorization: Bearer <API_KEY>.");
  });

  it("answers 401 invalid_api_key with error=invalid_token when the key is bad", async () => {
    const err = (await reject("Bearer bad-key")) as EngineError;
    expect([err.status, err.code]).toEqual([401, "invalid_api_key"]);
    expect(err.headers["WWW-Authenticate"]).toBe(`${challenge}, error="invalid_token"`);
    expect(err.message).toBe("The API key is invalid or revoked.");
  });

  it("takes the realm from the contract's security scheme", () => {
    const schemes = loadFixture().spec.components?.securitySchemes as Record<
      string,
      { "x-realm"?: string }
    >;
    expect(contract.realm).toBe(schemes.keyAuth?.["x-realm"]);
  });

  it("answers 401 invalid_api_key with error=invalid_request for two Authorization headers", async () => {
    const err = (await reject("Bearer good-key", undefined, true)) as EngineError;
    expect([err.status, err.code]).toEqual([401, "invalid_api_key"]);
    expect(err.headers["WWW-Authenticate"]).toBe(`${challenge}, error="invalid_request"`);
    expect(err.message).toBe("Send exactly one Authorization header.");
  });

  it("answers the key store's failure where a key is needed", async () => {
    const failure = new Error("store down");
    const caller = await identify("Bearer good-key", () => Promise.reject(failure));
    expect(caller).toEqual({ kind: "anonymous", address: "10.0.0.1", failure: "unverified" });
    expect(await reject("Bearer good-key", () => Promise.reject(failure))).toBe(failure);
    const thrown = () => {
      throw failure;
    };
    expect(await reject("Bearer good-key", thrown)).toBe(failure);
  });
});
