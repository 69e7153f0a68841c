/**
 * Every security scheme type the engine checks, through the real app over the security fixture
 * (`test/fixtures/security.yaml`): for each, a valid credential accepted and identified, and an
 * invalid or missing one refused with the documented error and a `WWW-Authenticate` naming the
 * scheme; alternatives, a combination and optional security as OpenAPI defines them; rate limits
 * keyed on whatever credential identified the caller; and the contracts the engine refuses at start.
 * Names, realms and scopes are read from the fixture.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileContract } from "../src/contract/contract.js";
import { type ScratchApp, startScratchApp, startScratchServer } from "../src/testing/index.js";
import { editedFixture, loadFixture } from "./support/fixture-contract.js";
import { FEEDS, SESSIONS, STAFF, securityApplication } from "./support/security-app.js";
import type { WidgetStore } from "./support/widget-app.js";

const { spec } = loadFixture("security");
type Scheme = { type: string; scheme?: string; in?: string; name?: string; "x-realm"?: string };
const schemes = spec.components?.securitySchemes as Record<string, Scheme>;
const errorCodes = (
  spec.components as unknown as {
    schemas: { Error: { properties: { code: { enum: string[] } } } };
  }
).schemas.Error.properties.code.enum;

/** The path of an operation, and the scopes its first requirement lists for `scheme`. */
function operation(operationId: string) {
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    const get = (item as { get?: { operationId: string; security?: Record<string, string[]>[] } })
      .get;
    if (get?.operationId === operationId)
      return { path, scopes: (scheme: string) => get.security?.[0]?.[scheme] ?? [] };
  }
  throw new Error(`no operation ${operationId} in the fixture`);
}

const realmOf = (name: string) => schemes[name]?.["x-realm"] ?? spec.info.title;
const courierHeader = schemes.courierKey?.name as string;
const feedParameter = schemes.feedToken?.name as string;
const visitCookie = schemes.visitSession?.name as string;
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`, "utf8").toString("base64")}`;

let app: ScratchApp<WidgetStore>;
beforeAll(async () => {
  app = await startScratchApp(securityApplication(), { env: { API_KEY_CACHE_TTL_MS: "0" } });
});
afterAll(() => app?.close());

function call(operationId: string, headers: Record<string, string> = {}, query = "") {
  return fetch(`${app.apiUrl}${operation(operationId).path}${query}`, { headers });
}

async function identified(response: Response) {
  expect(response.status).toBe(200);
  return (await response.json()) as { kind: string; subject?: string; schemes?: string[] };
}

/** Asserts the fixture's Error body and returns it with the challenge. */
async function refused(response: Response, status: number, code: string) {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as { code: string; message: string; status: number };
  expect({ httpStatus: response.status, ...body }).toMatchObject({
    httpStatus: status,
    code,
    status,
  });
  expect(Object.keys(body).sort()).toEqual(["code", "message", "status"]);
  expect(errorCodes).toContain(body.code);
  return { ...body, challenge: response.headers.get("www-authenticate") };
}

describe("http bearer (the document's security; keys of the key store)", () => {
  const challenge = `Bearer realm="${realmOf("residentKey")}"`;
  it("accepts a key of the key store, identified as that key", async () => {
    const who = await identified(
      await call("residentDoor", { authorization: `Bearer ${app.key}` }),
    );
    expect(who.kind).toBe("key");
  });
  it("refuses none 401 unauthorized and an unknown key 401 invalid_api_key", async () => {
    const none = await refused(await call("residentDoor"), 401, "unauthorized");
    expect(none.challenge).toBe(challenge);
    expect(none.message).toBe("Missing credentials: send Authorization: Bearer <API_KEY>.");
    const bad = await refused(
      await call("residentDoor", { authorization: "Bearer ask_nope" }),
      401,
      "invalid_api_key",
    );
    expect(bad.challenge).toBe(`${challenge}, error="invalid_token"`);
  });
});

describe("http basic", () => {
  const challenge = `Basic realm="${realmOf("staffLogin")}", charset="UTF-8"`;
  it("accepts a user-id and password (UTF-8, a colon in the password)", async () => {
    const who = await identified(
      await call("staffDoor", { authorization: basic("ann", STAFF.ann) }),
    );
    expect(who).toEqual({ kind: "credential", subject: "staff:ann", schemes: ["staffLogin"] });
  });
  it("refuses a wrong password 401 invalid_credentials, none 401 unauthorized, with the Basic challenge", async () => {
    const wrong = await refused(
      await call("staffDoor", { authorization: basic("ann", STAFF.bo) }),
      401,
      "invalid_credentials",
    );
    expect(wrong.challenge).toBe(challenge);
    const none = await refused(await call("staffDoor"), 401, "unauthorized");
    expect(none.challenge).toBe(challenge);
    expect(none.message).toContain("Authorization: Basic");
    // A bearer key is no basic credential at all.
    await refused(
      await call("staffDoor", { authorization: `Bearer ${app.key}` }),
      401,
      "unauthorized",
    );
  });
});

describe("apiKey", () => {
  it("in a header: a key of the key store accepted; an unknown one refused, challenged by name", async () => {
    const who = await identified(await call("deliveryDoor", { [courierHeader]: app.key }));
    expect(who.kind).toBe("key");
    const bad = await refused(
      await call("deliveryDoor", { [courierHeader]: "ask_nope" }),
      401,
      "invalid_api_key",
    );
    expect(bad.challenge).toBe(
      `ApiKey realm="${realmOf("courierKey")}", in="header", name="${courierHeader}"`,
    );
    // The key in Authorization is not the header this scheme reads.
    const elsewhere = await refused(
      await call("deliveryDoor", { authorization: `Bearer ${app.key}` }),
      401,
      "unauthorized",
    );
    expect(elsewhere.message).toContain(courierHeader);
  });

  it("in the query: accepted without being declared a parameter; unknown or sent twice refused", async () => {
    const [token, subject] = Object.entries(FEEDS)[0] as [string, string];
    const who = await identified(await call("feedDoor", {}, `?${feedParameter}=${token}`));
    expect(who).toMatchObject({ kind: "credential", subject });
    const bad = await refused(
      await call("feedDoor", {}, `?${feedParameter}=nope`),
      401,
      "invalid_api_key",
    );
    expect(bad.challenge).toContain(`in="query", name="${feedParameter}"`);
    const twice = await refused(
      await call("feedDoor", {}, `?${feedParameter}=${token}&${feedParameter}=${token}`),
      401,
      "invalid_api_key",
    );
    expect(twice.message).toBe(`Send exactly one ${feedParameter} query parameter.`);
  });

  it("in a cookie: accepted (percent-decoded); unknown refused", async () => {
    const [session, subject] = Object.entries(SESSIONS)[0] as [string, string];
    const cookie = `theme=dark; ${visitCookie}=${encodeURIComponent(session)}`;
    expect(await identified(await call("loungeDoor", { cookie }))).toMatchObject({
      kind: "credential",
      subject,
    });
    const bad = await refused(
      await call("loungeDoor", { cookie: `${visitCookie}=stale` }),
      401,
      "invalid_api_key",
    );
    expect(bad.challenge).toContain(`in="cookie", name="${visitCookie}"`);
  });
});

describe("oauth2 and openIdConnect (the application's verifiers, scopes enforced)", () => {
  const scope = operation("readLogbook").scopes("gateAuth")[0] as string;
  it("accepts a token holding the operation's scope", async () => {
    const who = await identified(await call("readLogbook", { authorization: "Bearer at-reader" }));
    expect(who).toMatchObject({ kind: "credential", subject: "client:at-reader" });
  });
  it("refuses a token without the scope 403 insufficient_scope, naming it", async () => {
    const lacking = await refused(
      await call("readLogbook", { authorization: "Bearer at-writer" }),
      403,
      "insufficient_scope",
    );
    expect(lacking.challenge).toBe(
      `Bearer realm="${realmOf("gateAuth")}", scope="${scope}", error="insufficient_scope"`,
    );
    expect(lacking.message).toContain(scope);
  });
  it("refuses an unknown token 401 invalid_credentials with error=invalid_token, none 401", async () => {
    const bad = await refused(
      await call("readLogbook", { authorization: "Bearer at-forged" }),
      401,
      "invalid_credentials",
    );
    expect(bad.challenge).toBe(`Bearer realm="${realmOf("gateAuth")}", error="invalid_token"`);
    await refused(await call("readLogbook"), 401, "unauthorized");
  });
  it("openIdConnect: its scope enforced the same way", async () => {
    const scopeId = operation("whoAmI").scopes("gateId")[0] as string;
    expect(
      await identified(await call("whoAmI", { authorization: "Bearer id-ann" })),
    ).toMatchObject({ subject: "user:id-ann" });
    const lacking = await refused(
      await call("whoAmI", { authorization: "Bearer id-noscope" }),
      403,
      "insufficient_scope",
    );
    expect(lacking.challenge).toContain(`scope="${scopeId}"`);
    await refused(
      await call("whoAmI", { authorization: "Bearer id-forged" }),
      401,
      "invalid_credentials",
    );
  });
});

describe("alternatives, a combination, optional security", () => {
  it("[A, B]: either credential is accepted; neither gets both challenges", async () => {
    expect((await identified(await call("sideDoor", { [courierHeader]: app.key }))).kind).toBe(
      "key",
    );
    expect(
      await identified(await call("sideDoor", { authorization: basic("bo", STAFF.bo) })),
    ).toMatchObject({ subject: "staff:bo" });
    const none = await refused(await call("sideDoor"), 401, "unauthorized");
    expect(none.challenge).toContain(`name="${courierHeader}"`);
    expect(none.challenge).toContain(`Basic realm="${realmOf("staffLogin")}"`);
    expect(none.message).toContain(" or ");
  });
  it("{A, B}: both credentials needed, both identified in order", async () => {
    const [session] = Object.keys(SESSIONS) as [string];
    const cookie = `${visitCookie}=${encodeURIComponent(session)}`;
    const authorization = basic("ann", STAFF.ann);
    expect(await identified(await call("vaultDoor", { authorization, cookie }))).toEqual({
      kind: "credential",
      subject: "staff:ann",
      schemes: ["staffLogin", "visitSession"],
    });
    await refused(await call("vaultDoor", { authorization }), 401, "unauthorized");
    await refused(await call("vaultDoor", { cookie }), 401, "unauthorized");
    await refused(
      await call("vaultDoor", { authorization, cookie: `${visitCookie}=stale` }),
      401,
      "invalid_api_key",
    );
  });
  it("{}: anyone is served; a valid key still identifies its caller, a bad one is anonymous", async () => {
    expect(await identified(await call("readNotices"))).toEqual({ kind: "anonymous" });
    expect(
      (await identified(await call("readNotices", { authorization: `Bearer ${app.key}` }))).kind,
    ).toBe("key");
    expect(
      await identified(await call("readNotices", { authorization: "Bearer ask_nope" })),
    ).toEqual({ kind: "anonymous" });
  });
});

describe("rate limiting keys on the credential that identified the caller", () => {
  it("counts a basic user, another user and the anonymous address each on its own window", async () => {
    const remaining = async (headers: Record<string, string>) =>
      Number((await call("staffDoor", headers)).headers.get("x-ratelimit-remaining"));
    const ann = { authorization: basic("ann", STAFF.ann) };
    const bo = { authorization: basic("bo", STAFF.bo) };
    const annFirst = await remaining(ann);
    const boFirst = await remaining(bo);
    const anonymousFirst = await remaining({});
    expect(await remaining(ann)).toBe(annFirst - 1);
    expect(await remaining(ann)).toBe(annFirst - 2);
    expect(await remaining(bo)).toBe(boFirst - 1);
    expect(await remaining({})).toBe(anonymousFirst - 1);
  });
});

describe("the real start sequence", () => {
  it("starts on the fixture (warm-up through every scheme) and serves with the application's verifiers", async () => {
    const started = await startScratchServer(securityApplication(), { name: "security" });
    try {
      const staff = await fetch(`${started.apiUrl}${operation("staffDoor").path}`, {
        headers: { authorization: basic("bo", STAFF.bo) },
      });
      expect(await identified(staff)).toMatchObject({ subject: "staff:bo" });
      const resident = await fetch(`${started.apiUrl}${operation("residentDoor").path}`, {
        headers: { authorization: `Bearer ${started.key}` },
      });
      expect((await identified(resident)).kind).toBe("key");
    } finally {
      await started.close();
    }
  });
});

describe("contracts the engine refuses at start", () => {
  const start = (edit: Parameters<typeof editedFixture>[0], verifiers = true) => {
    const loaded = editedFixture(edit, "security");
    const application = securityApplication(loaded);
    if (!verifiers) delete application.verifiers;
    return startScratchApp(application).then((started) => started.close());
  };
  it("a mutualTLS scheme, naming the scheme and the operations that use it", async () => {
    await expect(
      start((edited) => {
        (edited.components?.securitySchemes as Record<string, unknown>).clientCert = {
          type: "mutualTLS",
        };
        const paths = edited.paths as Record<string, { get: { security: unknown } }>;
        (paths["/vault"] as { get: { security: unknown } }).get.security = [{ clientCert: [] }];
      }),
    ).rejects.toThrow(/security scheme "clientCert" is a mutualTLS scheme.*\(used by vaultDoor\)/);
  });
  it("basic, oauth2 and openIdConnect schemes without a verifier, naming each", async () => {
    const refusal = start(() => {}, false);
    await expect(refusal).rejects.toThrow(/"staffLogin" has no verifier/);
    await expect(refusal).rejects.toThrow(/"gateAuth" has no verifier[^;]*\(used by readLogbook\)/);
    await expect(refusal).rejects.toThrow(/"gateId" has no verifier/);
    await expect(refusal).rejects.toThrow(/Application\.verifiers/);
  });
  it("an Error code enum without a code the contract's security can produce", () => {
    const without = (code: string) =>
      editedFixture((edited) => {
        const schemas = edited.components?.schemas as unknown as {
          Error: { properties: { code: { enum: string[] } } };
        };
        const codes = schemas.Error.properties.code;
        codes.enum = codes.enum.filter((c) => c !== code);
      }, "security");
    expect(() => compileContract(without("insufficient_scope"))).toThrow(/insufficient_scope/);
    expect(() => compileContract(without("invalid_credentials"))).toThrow(/invalid_credentials/);
  });
});
