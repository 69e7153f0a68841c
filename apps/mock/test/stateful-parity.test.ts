// `pnpm mock --stateful` answers as the real server does (its start sequence on a scratch SQLite
// file): the same status, `Error` body and challenge for bad input and bad credentials; any
// well-formed key accepted and counted in windows of its own on the chosen plan (default the
// spec's anonymous plan), with the server's X-RateLimit-*, RateLimit-Policy and RateLimit, and 429,
// then its ban.

import { connect } from "node:net";
import { type ScratchServer, startScratchServer } from "@animal-store/openapi-engine/testing";
import { animalStore, type Store } from "@animal-store/server";
import {
  component,
  first,
  policy,
  requestExamples,
  resolve,
} from "@animal-store/test-support/spec";
import { basePath } from "@animal-store/test-support/spec-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedMock, launchMock } from "./launch.js";

const json = { "Content-Type": "application/json" };
const limitMax = Number(resolve(component("parameters", "Limit").schema).maximum);
const pet = first<Record<string, unknown>>(requestExamples("/pets", "post"));
const anonymous = policy.plans[policy.anonymousPlan];
const MINUTE = 60_000;

/** Requests the contract refuses, each as sent below the API's base URL. */
const REFUSED: [string, string, RequestInit][] = [
  [
    "a body missing a required property",
    "/pets",
    { method: "POST", headers: json, body: JSON.stringify({ name: pet.name }) },
  ],
  ["an empty body object", "/pets", { method: "POST", headers: json, body: "{}" }],
  [
    "the id the service assigns",
    "/pets",
    { method: "POST", headers: json, body: JSON.stringify({ ...pet, id: 1 }) },
  ],
  ["a body that is not JSON", "/pets", { method: "POST", headers: json, body: "{name:" }],
  [
    "a text/plain body",
    "/pets",
    { method: "POST", headers: { "Content-Type": "text/plain" }, body: "x" },
  ],
  ["limit above its maximum", `/pets?limit=${limitMax + 1}`, {}],
  ["an unknown status", "/pets?status=nope", {}],
  ["a made-up cursor", "/pets?cursor=made-up", {}],
  ["an unknown query parameter", "/pets?colour=red", {}],
  ["a petId that is no number", "/pets/abc", {}],
  ["an unknown path", "/nope", {}],
  ["a method the path lacks", "/pets", { method: "DELETE" }],
];

/** What comes back on a raw connection to `origin` for `bytes`, until the server closes it. */
function rawExchange(origin: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    let text = "";
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    socket.setEncoding("utf8");
    socket.setTimeout(5000, () => socket.destroy(new Error("no answer within 5 s")));
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
  });
}

/** Status, body and the headers that say why, of one answer. */
async function answer(response: Response) {
  return {
    status: response.status,
    body: await response.json(),
    challenge: response.headers.get("WWW-Authenticate"),
    allow: response.headers.get("Allow"),
  };
}

describe("pnpm mock --stateful answers as the server", () => {
  let mock: LaunchedMock;
  let server: ScratchServer<Store>;
  beforeAll(async () => {
    [mock, server] = await Promise.all([
      launchMock(["--stateful"]),
      startScratchServer(animalStore, { name: "parity" }),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled([mock?.stop(), server?.close()]);
  });

  /** The same request to both, each with its own credential (`null`: none). */
  const both = async (path: string, init: RequestInit, auth: (key: string) => string | null) =>
    Promise.all(
      [
        [mock.url, "any-key-works"],
        [server.apiUrl, server.key],
      ].map(async ([base, key]) => {
        const headers = new Headers(init.headers);
        const value = auth(key as string);
        if (value !== null) headers.set("Authorization", value);
        return answer(await fetch(`${base}${path}`, { ...init, headers }));
      }),
    );

  it.each(REFUSED)("%s: the same status and Error body", async (_what, path, init) => {
    const [fromMock, fromServer] = await both(path, init, (key) => `Bearer ${key}`);
    expect(fromServer?.status).toBeGreaterThanOrEqual(400);
    expect(fromMock).toEqual(fromServer);
  });

  it.each([
    ["no Authorization header", () => null],
    ["another scheme", () => "Basic YTpi"],
    ["a bearer token that is not well-formed", () => "Bearer not one token"],
  ])("%s: the server's 401 with its challenge", async (_what, auth) => {
    const [fromMock, fromServer] = await both("/pets", {}, auth);
    expect(fromServer?.status).toBe(401);
    expect(fromMock).toEqual(fromServer);
  });

  it("a request smuggling attempt (Content-Length with Transfer-Encoding): the server's connection-level answer", async () => {
    const smuggled = `POST ${basePath}/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`;
    const [fromMock, fromServer] = await Promise.all(
      [mock.origin, server.url].map((origin) => rawExchange(origin, smuggled)),
    );
    const statusAndBody = (text = "") => [
      text.split("\r\n")[0],
      text.slice(text.indexOf("\r\n\r\n") + 4),
    ];
    expect(statusAndBody(fromServer)[0]).toMatch(/^HTTP\/1\.1 400/);
    expect(statusAndBody(fromMock)).toEqual(statusAndBody(fromServer));
  });

  it("accepts any well-formed key", async () => {
    for (const key of ["k", "ask_made-up", "x".repeat(200), "a.b~c+d/e=="]) {
      const res = await fetch(`${mock.url}/pets`, { headers: { Authorization: `Bearer ${key}` } });
      expect(res.status, key).toBe(200);
    }
  });
});

describe("pnpm mock --stateful: rate limits", () => {
  // A pretend clock at the start of a minute, so the whole test runs in one window.
  const windowStart = Math.ceil(Date.now() / MINUTE) * MINUTE;
  let mock: LaunchedMock;
  beforeAll(async () => {
    mock = await launchMock(["--stateful", "--now", new Date(windowStart).toISOString()]);
  });
  afterAll(async () => {
    await mock?.stop();
  });
  const list = (key: string) =>
    fetch(`${mock.url}/pets`, { headers: { Authorization: `Bearer ${key}` } });

  it("counts each key on the spec's anonymous plan: the meter and the 429 agree, then the ban", async () => {
    const perMinute = anonymous?.perMinute ?? Number.NaN;
    for (let i = 1; i <= perMinute; i++) {
      const res = await list("counted");
      expect(res.status).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toBe(String(perMinute));
      expect(res.headers.get("X-RateLimit-Remaining")).toBe(String(perMinute - i));
      // The IETF fields, from the same count: the plan's windows, and the minute's requests left.
      expect(res.headers.get("RateLimit-Policy")).toBe(
        `"minute";q=${perMinute};w=60, "day";q=${anonymous?.perDay};w=86400`,
      );
      expect(res.headers.get("RateLimit")).toMatch(
        new RegExp(`^"minute";r=${perMinute - i};t=\\d+, "day";r=\\d+;t=\\d+$`),
      );
    }
    const limited = await list("counted");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("X-RateLimit-Remaining")).toBe("0");
    const reset = Number(limited.headers.get("X-RateLimit-Reset"));
    expect(reset).toBe((windowStart + MINUTE) / 1000);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ code: "rate_limited", status: 429 });
    // Another key has a window of its own.
    expect((await list("another")).headers.get("X-RateLimit-Remaining")).toBe(
      String(perMinute - 1),
    );
    const { threshold } = policy.ban;
    const codes: string[] = [];
    for (let i = 0; i < threshold; i++) {
      codes.push(((await (await list("counted")).json()) as { code: string }).code);
    }
    expect(codes.at(-1)).toBe("api_key_banned");
  });

  it("--plan counts every key on another of the spec's plans", async () => {
    const [plan, limits] = Object.entries(policy.plans).find(
      ([name, limits]) => name !== policy.anonymousPlan && !limits.custom,
    ) ?? ["", undefined];
    const other = await launchMock(["--stateful", "--plan", plan]);
    try {
      const res = await fetch(`${other.url}/pets`, { headers: { Authorization: "Bearer k" } });
      expect(res.headers.get("X-RateLimit-Limit")).toBe(String(limits?.perMinute));
    } finally {
      await other.stop();
    }
  });

  it("refuses a plan the spec does not have, naming the spec's plans", async () => {
    await expect(launchMock(["--stateful", "--plan", "no-such-plan"])).rejects.toThrow(
      new RegExp(`exited with 1[\\s\\S]*${policy.planNames.join(", ")}`),
    );
  });
});
