import { describe, expect, it } from "vitest";
import {
  type CredentialRequest,
  type CredentialVerifier,
  compileSecurity,
  type SecurityOutcome,
  type SecurityRequirement,
} from "./security-schemes.js";

// A fixture contract's schemes, one of each type OpenAPI 3.1 defines that the engine checks.
const schemes = {
  bearerAuth: { type: "http", scheme: "bearer", "x-realm": "fixture" },
  basicAuth: { type: "http", scheme: "Basic" },
  headerKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
  queryKey: { type: "apiKey", in: "query", name: "api_key" },
  cookieKey: { type: "apiKey", in: "cookie", name: "session" },
  oauth: {
    type: "oauth2",
    flows: { clientCredentials: { tokenUrl: "https://auth.example/token", scopes: {} } },
  },
  oidc: { type: "openIdConnect", openIdConnectUrl: "https://auth.example/.well-known" },
  mtls: { type: "mutualTLS" },
  digest: { type: "http", scheme: "digest" },
};

const tokens: Record<string, string[]> = { "tok-read": ["read"], "tok-rw": ["read", "write"] };
const calls: string[] = [];

const verifiers: Record<string, CredentialVerifier> = {
  // Synchronous, as a cache hit answers.
  bearerAuth: (c) => (c.kind === "bearer" && c.token === "good" ? { subject: "key-1" } : null),
  basicAuth: (c) =>
    c.kind === "basic" && c.userId === "ann" && c.password === "p:ss wörd"
      ? { subject: "user:ann" }
      : null,
  headerKey: async (c) => (c.kind === "apiKey" && c.key === "hk" ? { subject: "partner" } : null),
  queryKey: (c) => (c.kind === "apiKey" && c.key === "qk" ? { subject: "q" } : null),
  cookieKey: (c) => (c.kind === "apiKey" && c.key === "ck 1" ? { subject: "c" } : null),
  oauth: async (c) => {
    calls.push("oauth");
    const scopes = c.kind === "bearer" ? tokens[c.token] : undefined;
    return scopes ? { subject: `client:${c.kind === "bearer" ? c.token : ""}`, scopes } : null;
  },
  oidc: (c) =>
    c.kind === "bearer" && c.token === "id-tok" ? { subject: "sub-9", scopes: ["openid"] } : null,
};

function checker(security: SecurityRequirement[], verifierSet = verifiers) {
  return compileSecurity({
    schemes,
    operations: [{ operationId: "op", security }],
    verifiers: verifierSet,
    realm: "Default Realm",
  }).forOperation("op");
}

async function check(security: SecurityRequirement[], request: CredentialRequest) {
  return await checker(security)(request);
}

const basic = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`;

function refusal(outcome: SecurityOutcome) {
  expect(outcome.ok).toBe(false);
  return outcome as Extract<SecurityOutcome, { ok: false }>;
}

describe("http bearer", () => {
  const security = [{ bearerAuth: [] }];
  it("identifies a valid token synchronously, keyed on the verifier's subject", () => {
    const outcome = checker(security)({ headers: { authorization: "bearer good" } });
    expect(outcome).not.toBeInstanceOf(Promise);
    expect(outcome).toMatchObject({
      ok: true,
      requirement: 0,
      subject: "key-1",
      credentials: [{ scheme: "bearerAuth", type: "http-bearer", subject: "key-1", scopes: [] }],
    });
  });
  it("refuses a missing, unknown, malformed or doubled credential with the bearer challenge", async () => {
    const missing = refusal(await check(security, { headers: {} }));
    expect(missing).toMatchObject({ failure: "missing", status: 401 });
    expect(missing.challenges).toEqual(['Bearer realm="fixture"']);
    const unknown = refusal(await check(security, { headers: { authorization: "Bearer nope" } }));
    expect(unknown.failure).toBe("invalid");
    expect(unknown.challenges).toEqual(['Bearer realm="fixture", error="invalid_token"']);
    expect(
      refusal(await check(security, { headers: { authorization: "Bearer a b" } })).failure,
    ).toBe("invalid");
    expect(
      refusal(
        await check(security, { headers: { authorization: ["Bearer good", "Bearer good"] } }),
      ),
    ).toMatchObject({
      failure: "ambiguous",
      challenges: ['Bearer realm="fixture", error="invalid_request"'],
    });
  });
  it("takes another scheme's Authorization as no bearer credential at all", async () => {
    expect(
      refusal(await check(security, { headers: { authorization: basic("a:b") } })).failure,
    ).toBe("missing");
  });
  it("enforces roles listed by the requirement against the verifier's scopes", async () => {
    const outcome = refusal(
      await check([{ bearerAuth: ["admin"] }], { headers: { authorization: "Bearer good" } }),
    );
    expect(outcome).toMatchObject({ failure: "insufficient_scope", status: 403, subject: "key-1" });
  });
});

describe("http basic (RFC 7617)", () => {
  const security = [{ basicAuth: [] }];
  it("splits at the first colon and decodes UTF-8", async () => {
    const outcome = await check(security, { headers: { authorization: basic("ann:p:ss wörd") } });
    expect(outcome).toMatchObject({
      ok: true,
      credentials: [{ type: "http-basic", userId: "ann", subject: "user:ann" }],
    });
  });
  it("refuses a wrong password, bad base64, no colon, bytes that are not UTF-8", async () => {
    for (const header of [
      basic("ann:wrong"),
      "Basic !!!",
      "Basic YW5u", // "ann": no colon
      `Basic ${Buffer.from([0x61, 0x3a, 0xff]).toString("base64")}`,
      basic("a\u0000:b"),
      "Basic",
    ]) {
      const outcome = refusal(await check(security, { headers: { authorization: header } }));
      expect(outcome.failure, header).toBe("invalid");
    }
  });
  it("refuses malformed credentials before any verifier sees them", async () => {
    const seen: unknown[] = [];
    const lenient = checker(security, {
      basicAuth: (credential) => {
        seen.push(credential);
        return { subject: "any" };
      },
    });
    for (const header of [
      "Basic YW5u",
      "Basic YW5u=",
      `Basic ${Buffer.from("a\u0007:b").toString("base64")}`,
    ]) {
      expect(refusal(await lenient({ headers: { authorization: header } })).failure, header).toBe(
        "invalid",
      );
    }
    expect(seen).toEqual([]);
    expect(await lenient({ headers: { authorization: basic(":") } })).toMatchObject({ ok: true });
    expect(seen).toEqual([{ kind: "basic", userId: "", password: "" }]);
  });
  it("challenges with the realm and the UTF-8 charset", async () => {
    expect(refusal(await check(security, { headers: {} })).challenges).toEqual([
      'Basic realm="Default Realm", charset="UTF-8"',
    ]);
  });
});

describe("apiKey", () => {
  it("reads a header key (case-insensitive name), async verifier", async () => {
    const check1 = checker([{ headerKey: [] }]);
    const pending = check1({ headers: { "x-api-key": "hk" } });
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toMatchObject({
      ok: true,
      subject: "partner",
      credentials: [{ type: "apiKey", in: "header", name: "X-Api-Key" }],
    });
    const missing = refusal(await check1({ headers: { "x-api-key": "" } }));
    expect(missing.failure).toBe("missing");
    expect(missing.challenges).toEqual([
      'ApiKey realm="Default Realm", in="header", name="X-Api-Key"',
    ]);
    expect(refusal(await check1({ headers: { "x-api-key": ["hk", "hk"] } })).failure).toBe(
      "ambiguous",
    );
  });
  it("reads a query key, refusing a repeated one", async () => {
    expect(
      await check([{ queryKey: [] }], { headers: {}, query: { api_key: "qk" } }),
    ).toMatchObject({
      ok: true,
      subject: "q",
    });
    expect(
      refusal(await check([{ queryKey: [] }], { headers: {}, query: { api_key: ["qk", "x"] } }))
        .failure,
    ).toBe("ambiguous");
    expect(refusal(await check([{ queryKey: [] }], { headers: {} })).failure).toBe("missing");
  });
  it("reads a cookie key with the cookie package (decoding %20)", async () => {
    expect(
      await check([{ cookieKey: [] }], { headers: { cookie: "a=1; session=ck%201; b=2" } }),
    ).toMatchObject({ ok: true, subject: "c", credentials: [{ in: "cookie" }] });
    expect(
      await check([{ cookieKey: [] }], { headers: { cookie: ["a=1", "session=ck%201"] } }),
    ).toMatchObject({ ok: true });
    expect(
      refusal(await check([{ cookieKey: [] }], { headers: { cookie: "session=bad" } })).failure,
    ).toBe("invalid");
    expect(
      refusal(await check([{ cookieKey: [] }], { headers: { cookie: "other=1" } })).failure,
    ).toBe("missing");
  });
});

describe("oauth2 and openIdConnect", () => {
  it("accepts a token holding every scope the operation requires", async () => {
    expect(
      await check([{ oauth: ["read", "write"] }], { headers: { authorization: "Bearer tok-rw" } }),
    ).toMatchObject({
      ok: true,
      subject: "client:tok-rw",
      credentials: [{ type: "oauth2", scopes: ["read", "write"] }],
    });
  });
  it("answers 403 insufficient_scope naming the missing scope in the challenge", async () => {
    const outcome = refusal(
      await check([{ oauth: ["read", "write"] }], {
        headers: { authorization: "Bearer tok-read" },
      }),
    );
    expect(outcome).toMatchObject({
      failure: "insufficient_scope",
      status: 403,
      subject: "client:tok-read",
    });
    expect(outcome.challenges).toEqual([
      'Bearer realm="Default Realm", scope="write", error="insufficient_scope"',
    ]);
    expect(outcome.detail).toContain("write");
  });
  it("refuses an unknown token 401 invalid_token", async () => {
    expect(
      refusal(await check([{ oauth: [] }], { headers: { authorization: "Bearer x" } })).failure,
    ).toBe("invalid");
  });
  it("checks openIdConnect tokens by their verifier", async () => {
    expect(
      await check([{ oidc: ["openid"] }], { headers: { authorization: "Bearer id-tok" } }),
    ).toMatchObject({ ok: true, subject: "sub-9", credentials: [{ type: "openIdConnect" }] });
    expect(
      refusal(await check([{ oidc: ["profile"] }], { headers: { authorization: "Bearer id-tok" } }))
        .failure,
    ).toBe("insufficient_scope");
  });
});

describe("alternatives, combinations and optional security", () => {
  const alternatives: SecurityRequirement[] = [{ bearerAuth: [] }, { headerKey: [] }];
  it("[A, B]: either one satisfies, the first satisfied wins", async () => {
    expect(await check(alternatives, { headers: { "x-api-key": "hk" } })).toMatchObject({
      ok: true,
      requirement: 1,
      subject: "partner",
    });
    expect(
      await check(alternatives, { headers: { "x-api-key": "hk", authorization: "Bearer good" } }),
    ).toMatchObject({ ok: true, requirement: 0, subject: "key-1" });
    // A failed alternative does not spoil one that is satisfied.
    expect(
      await check(alternatives, { headers: { "x-api-key": "hk", authorization: "Bearer bad" } }),
    ).toMatchObject({ ok: true, requirement: 1 });
  });
  it("[A, B]: neither → every scheme's challenge", async () => {
    expect(refusal(await check(alternatives, { headers: {} })).challenges).toEqual([
      'Bearer realm="fixture"',
      'ApiKey realm="Default Realm", in="header", name="X-Api-Key"',
    ]);
  });
  it("{A, B}: both credentials needed, both identified in order", async () => {
    const both = [{ headerKey: [], cookieKey: [] }];
    expect(
      await check(both, { headers: { "x-api-key": "hk", cookie: "session=ck%201" } }),
    ).toMatchObject({
      ok: true,
      requirement: 0,
      subject: "partner",
      credentials: [{ scheme: "headerKey" }, { scheme: "cookieKey" }],
    });
    expect(refusal(await check(both, { headers: { "x-api-key": "hk" } })).failure).toBe("missing");
    expect(
      refusal(await check(both, { headers: { "x-api-key": "hk", cookie: "session=no" } })).failure,
    ).toBe("invalid");
  });
  it("{}: anonymous allowed; a satisfied credential still identifies the caller", async () => {
    const optional: SecurityRequirement[] = [{ bearerAuth: [] }, {}];
    const check1 = checker(optional);
    expect(check1.anonymousAllowed).toBe(true);
    expect(await check1({ headers: {} })).toMatchObject({
      ok: true,
      requirement: 1,
      subject: undefined,
      attempted: undefined,
    });
    expect(await check1({ headers: { authorization: "Bearer good" } })).toMatchObject({
      ok: true,
      requirement: 0,
      subject: "key-1",
    });
    expect(await check1({ headers: { authorization: "Bearer bad" } })).toMatchObject({
      ok: true,
      requirement: 1,
      attempted: "invalid",
    });
  });
  it("no requirement at all: nothing read, nothing verified", () => {
    const check1 = checker([]);
    expect(check1.anonymousAllowed).toBe(true);
    expect(check1({ headers: { authorization: "Bearer bad" } })).toMatchObject({
      ok: true,
      requirement: -1,
    });
    expect(checker([{ bearerAuth: [] }]).anonymousAllowed).toBe(false);
  });
  it("verifies a scheme once however many requirements name it", async () => {
    calls.length = 0;
    await check([{ oauth: ["write"] }, { oauth: ["read"] }], {
      headers: { authorization: "Bearer tok-read" },
    });
    expect(calls).toEqual(["oauth"]);
  });
  it("prefers insufficient scope over invalid over missing", async () => {
    // One token offered to two schemes: the one that knows it says it lacks a scope.
    const shared = refusal(
      await check([{ bearerAuth: [] }, { oauth: ["write"] }], {
        headers: { authorization: "Bearer tok-read" },
      }),
    );
    expect(shared).toMatchObject({ failure: "insufficient_scope", status: 403 });
    const invalid = refusal(
      await check([{ oauth: [] }, { headerKey: [] }], {
        headers: { authorization: "Bearer unknown", "x-api-key": "hk-wrong" },
      }),
    );
    expect(invalid).toMatchObject({ failure: "invalid", status: 401 });
    const missing = refusal(
      await check([{ oauth: [] }, { headerKey: [] }], { headers: { authorization: "Basic x" } }),
    );
    expect(missing.failure).toBe("missing");
  });
});

describe("a verifier that cannot check (store outage)", () => {
  const failing: Record<string, CredentialVerifier> = {
    ...verifiers,
    bearerAuth: () => {
      throw new Error("store down");
    },
    headerKey: async () => {
      throw new Error("store down");
    },
  };
  it("answers unverified with the verifier's error, sync or async", async () => {
    for (const [security, headers] of [
      [[{ bearerAuth: [] }], { authorization: "Bearer good" }],
      [[{ headerKey: [] }], { "x-api-key": "hk" }],
    ] as const) {
      const outcome = refusal(await checker([...security], failing)({ headers }));
      expect(outcome.failure).toBe("unverified");
      expect((outcome.error as Error).message).toBe("store down");
    }
  });
});

describe("compile-time refusals", () => {
  const compile = (security: SecurityRequirement[], operationId = "op") =>
    compileSecurity({
      schemes,
      operations: [
        { operationId, security },
        { operationId: "other", security },
      ],
      verifiers,
      realm: "r",
    });
  it("refuses mutualTLS naming the scheme and every operation using it", () => {
    expect(() => compile([{ mtls: [] }])).toThrow(
      /security scheme "mtls" is a mutualTLS scheme.*\(used by op, other\)/,
    );
  });
  it("refuses an HTTP scheme other than bearer and basic, an undefined scheme, a missing verifier", () => {
    expect(() => compile([{ digest: [] }])).toThrow(/"digest" is an HTTP "digest" scheme/);
    expect(() => compile([{ nowhere: [] }])).toThrow(/"nowhere" is not defined/);
    expect(() =>
      compileSecurity({
        schemes,
        operations: [{ operationId: "op", security: [{ bearerAuth: [] }] }],
        verifiers: {},
        realm: "r",
      }),
    ).toThrow(/"bearerAuth" has no verifier/);
  });
  it("refuses an apiKey in an unknown place or without a name, and an unknown type", () => {
    expect(() =>
      compileSecurity({
        schemes: {
          k: { type: "apiKey", in: "body", name: "k" },
          n: { type: "apiKey", in: "header" },
          t: { type: "magic" },
        },
        operations: [{ operationId: "op", security: [{ k: [], n: [], t: [] }] }],
        verifiers: { k: verifiers.queryKey as CredentialVerifier },
        realm: "r",
      }),
    ).toThrow(
      /"k" is an apiKey scheme in "body".*"n" is an apiKey scheme without a name.*"t" has type "magic"/,
    );
  });
  it("leaves a scheme no operation uses alone", () => {
    expect(() => compile([{ bearerAuth: [] }])).not.toThrow();
  });
});

describe("challenges", () => {
  it("escapes quotes in a realm", async () => {
    const check1 = compileSecurity({
      schemes: { b: { type: "http", scheme: "bearer" } },
      operations: [{ operationId: "op", security: [{ b: [] }] }],
      verifiers: { b: () => null },
      realm: 'say "hi"\\',
    }).forOperation("op");
    expect(refusal(await check1({ headers: {} })).challenges).toEqual([
      'Bearer realm="say \\"hi\\"\\\\"',
    ]);
  });
});
