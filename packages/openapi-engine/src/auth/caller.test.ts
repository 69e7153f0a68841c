import { loadBundledSpec } from "@animal-store/openapi";
import type { NextFunction, Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { type CompiledOperation, compileContract } from "../contract/contract.js";
import { EngineError, engineErrors } from "../errors.js";
import { type ApiKeyRecord, type Caller, identifyCaller, requireCredential } from "./caller.js";

const contract = compileContract(loadBundledSpec());
const secured = contract.operations.find((op) => op.requiresCredential) as CompiledOperation;
const challenge = `Bearer realm="${contract.realm}"`;

const record: ApiKeyRecord = {
  id: "k1",
  name: "web",
  plan: "pro",
  perMinute: null,
  perDay: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  revokedAt: null,
};

async function identify(authorization: string | undefined): Promise<Caller> {
  const rawHeaders = authorization === undefined ? [] : ["Authorization", authorization];
  const req = {
    headers: { authorization },
    rawHeaders,
    ip: "10.0.0.1",
    socket: {},
  } as unknown as Request;
  const res = { locals: {} } as unknown as Response;
  await identifyCaller(async (key) => (key === "good-key" ? record : null))(req, res, () => {});
  return res.locals.caller as Caller;
}

function reject(
  caller: Caller,
  locals: Partial<Response["locals"]> = { operation: secured },
  anonymousByDefault = false,
): unknown {
  let passed: unknown = "not called";
  requireCredential({ anonymousByDefault, realm: contract.realm })(
    {} as Request,
    { locals: { caller, ...locals } } as unknown as Response,
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
    const schemes = loadBundledSpec().spec.components?.securitySchemes as Record<
      string,
      { "x-realm"?: string }
    >;
    expect(contract.realm).toBe(schemes.bearerAuth?.["x-realm"]);
  });

  it("lets any caller through an operation whose security allows none (security: [])", () => {
    const open = { ...secured, requiresCredential: false };
    for (const failure of ["missing", "invalid"] as const) {
      expect(reject({ kind: "anonymous", address: "x", failure }, { operation: open })).toBe(
        undefined,
      );
    }
  });

  it("asks for a credential before revealing a 404/405, unless the document needs none", () => {
    const routeError = engineErrors.noSuchPath("/nope");
    const anonymous: Caller = { kind: "anonymous", address: "x", failure: "missing" };
    expect((reject(anonymous, { routeError }) as EngineError).status).toBe(401);
    expect(reject({ kind: "key", key: record }, { routeError })).toBe(routeError);
    expect(reject(anonymous, { routeError }, true)).toBe(routeError);
  });

  it("answers the key store's failure where a key is needed, never where none is", () => {
    const failure = new Error("store down");
    const anonymous: Caller = { kind: "anonymous", address: "x", failure: "invalid" };
    expect(reject(anonymous, { operation: secured, keyLookupError: failure })).toBe(failure);
    expect(
      reject(anonymous, {
        operation: { ...secured, requiresCredential: false },
        keyLookupError: failure,
      }),
    ).toBeUndefined();
  });
});
