/**
 * The engine's front door (openapi-engine routing/api-front.ts) takes requests under the base
 * path straight to the API's steps, past Express's router. Every other suite goes through the
 * front; this one sends the same requests, in the same order, to two apps that differ only in the
 * road (the front, or Express's router as every other request takes) and asks for the same
 * answers: status, headers and body. The requests come from the spec: each operation's example
 * call with and without a key, with an unknown query parameter, a malformed body, a wrong media
 * type; each path's OPTIONS, HEAD and an undeclared method; unknown paths and targets only
 * Express takes.
 */
import { exampleRequest, loadBundledSpec, specOperations } from "@animal-store/openapi";
import { type ScratchApp, startScratchApp } from "@animal-store/openapi-engine/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { animalStore } from "../src/animal-store.js";
import type { Store } from "../src/store/index.js";
import { contract } from "./support/contract.js";

const { spec } = loadBundledSpec();
const base = contract.basePath;
const METHODS = ["GET", "PUT", "POST", "DELETE", "PATCH"];

interface Call {
  what: string;
  method: string;
  /** Relative to the origin. */
  target: string;
  headers?: Record<string, string>;
  body?: string;
  keyless?: boolean;
}

/** The calls, built from the spec's operations and paths. */
function calls(): Call[] {
  const list: Call[] = [];
  const paths = new Map<string, Set<string>>();
  for (const operation of specOperations(spec)) {
    const example = exampleRequest(spec, base, operation);
    const call = {
      what: operation.operationId,
      method: example.method.toUpperCase(),
      target: example.path,
      headers: example.headers,
      ...(example.body === undefined ? {} : { body: example.body }),
    };
    list.push(call, { ...call, what: `${call.what} without a key`, keyless: true });
    const joiner = call.target.includes("?") ? "&" : "?";
    list.push({
      ...call,
      what: `${call.what}, unknown query`,
      target: `${call.target}${joiner}zz=1`,
    });
    if (call.body !== undefined) {
      list.push({ ...call, what: `${call.what}, malformed body`, body: "{" });
      list.push({
        ...call,
        what: `${call.what}, text body`,
        headers: { ...call.headers, "content-type": "text/plain" },
      });
    }
    const methods = paths.get(operation.path) ?? new Set<string>();
    methods.add(call.method);
    paths.set(operation.path, methods);
    if (call.method === "GET") list.push({ ...call, what: `${call.what} as HEAD`, method: "HEAD" });
  }
  for (const [path, methods] of paths) {
    const target = `${base}${path.replace(/\{[^}]+\}/g, "1")}`;
    list.push({ what: `OPTIONS ${path}`, method: "OPTIONS", target });
    const missing = METHODS.find((m) => !methods.has(m));
    if (missing !== undefined) list.push({ what: `${missing} ${path}`, method: missing, target });
  }
  list.push(
    { what: "an unknown path", method: "GET", target: `${base}/no-such-path` },
    { what: "an unknown path without a key", method: "GET", target: `${base}/x`, keyless: true },
    { what: "the base path alone", method: "GET", target: base },
    { what: "the base path in other case", method: "GET", target: `${base.toUpperCase()}/x` },
    {
      what: "a request id",
      method: "GET",
      target: `${base}/x`,
      headers: { "x-request-id": "r-1" },
    },
  );
  return list;
}

/** What two answers must share: status, headers but the request id, body. */
async function answerOf(app: ScratchApp<Store>, call: Call) {
  const headers = new Headers(call.headers);
  if (!call.keyless) headers.set("authorization", `Bearer ${app.key}`);
  if (!headers.has("x-request-id")) headers.set("x-request-id", "same-on-both-roads");
  const response = await fetch(`${app.url}${call.target}`, {
    method: call.method,
    headers,
    ...(call.body === undefined ? {} : { body: call.body }),
  });
  const seen = [...response.headers].filter(([name]) => name !== "keep-alive");
  return { status: response.status, headers: seen, body: await response.text() };
}

describe("the front door answers as Express's router does", () => {
  const now = Date.now();
  let front: ScratchApp<Store>;
  let express: ScratchApp<Store>;
  beforeAll(async () => {
    const options = { env: { API_KEY_CACHE_TTL_MS: "0" }, clock: () => now };
    front = await startScratchApp(animalStore, options);
    express = await startScratchApp(animalStore, { ...options, road: "express" });
  });
  afterAll(async () => {
    await front?.close();
    await express?.close();
  });

  it("the same status, headers and body for every call, in order", async () => {
    const list = calls();
    expect(list.length).toBeGreaterThan(10);
    for (const call of list) {
      const [a, b] = [await answerOf(front, call), await answerOf(express, call)];
      expect({ call: call.what, ...a }).toEqual({ call: call.what, ...b });
    }
  });
});
