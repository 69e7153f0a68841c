/**
 * HTTP hardening, one test per item (the header size limit and slow headers and bodies are in
 * http-edges.test.ts): pipelined requests are answered in order, a smuggled request never is;
 * `__proto__` and `constructor` keys in a body never reach an object; a 10,000-deep JSON body
 * gets 400 without a stack overflow. Each names the planted fault it was seen to fail on.
 */
import { describe, expect, it } from "vitest";
import { openSocket, parseAnswers, rawExchange, readUntilClose } from "./support/raw-http.js";
import { contract, useFixtureServer } from "./support/serve.js";
import { pageSize } from "./support/widgets.js";

const suite = useFixtureServer("hardening");

const base = contract.basePath;
const post = (body: string) =>
  `POST ${base}/widgets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${suite.key}\r\n` +
  `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
const answerTo = async (bytes: string) => parseAnswers(await rawExchange(suite.server.url, bytes));

describe("pipelining and smuggling (planted fault: a parser that takes Content-Length over Transfer-Encoding)", () => {
  it("answers pipelined requests in order, each once", async () => {
    const socket = await openSocket(suite.server.url);
    const text = readUntilClose(socket);
    const get = (path: string, close = false) =>
      `GET ${base}${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${suite.key}\r\n${close ? "Connection: close\r\n" : ""}\r\n`;
    socket.end(
      get(`/widgets?${pageSize.name}=1`) +
        get("/widgets/999999") +
        get(`/widgets?${pageSize.name}=2`, true),
    );
    expect(parseAnswers(await text).map((a) => a.status)).toEqual([200, 404, 200]);
  });

  it.each([
    [
      "Content-Length and Transfer-Encoding",
      "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ],
    ["two Content-Lengths", "Content-Length: 0\r\nContent-Length: 67\r\n\r\n"],
    [
      "an obfuscated Transfer-Encoding",
      "Content-Length: 67\r\nTransfer-Encoding: xchunked\r\n\r\n",
    ],
  ])("refuses %s, and the request hidden behind it is never answered", async (_label, framing) => {
    const smuggled = `GET ${base}/widgets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${suite.key}\r\n\r\n`;
    const answers = await answerTo(
      `POST ${base}/widgets HTTP/1.1\r\nHost: x\r\n${framing}${smuggled}`,
    );
    expect(answers.map((a) => a.status)).toEqual([400]);
    expect(JSON.parse(answers[0]?.body ?? "{}")).toMatchObject({ code: "malformed_request" });
  });
});

describe("__proto__ and constructor keys (planted fault: a body merged into an object with Object.assign on a prototype)", () => {
  it.each([
    ['{"label":"Cog","sizeId":1,"__proto__":{"polluted":true}}'],
    ['{"label":"Cog","sizeId":1,"constructor":{"prototype":{"polluted":true}}}'],
    ['{"__proto__":{"label":"Cog","sizeId":1}}'],
  ])("are refused 400 and reach no object: %s", async (body) => {
    const [answer] = await answerTo(post(body));
    expect(answer?.status).toBe(400);
    expect(JSON.parse(answer?.body ?? "{}")).toMatchObject({ code: "validation_failed" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
    const listed = await fetch(
      `${suite.server.url}${base}/widgets?${pageSize.name}=${pageSize.max}`,
      {
        headers: { authorization: `Bearer ${suite.key}` },
      },
    );
    expect(JSON.stringify(await listed.json())).not.toContain("polluted");
  });
});

describe("deeply nested JSON (planted fault: a recursive walk of the parsed body)", () => {
  it("answers a 10,000-deep body 400 without a stack overflow, and keeps serving", async () => {
    const [open] = await answerTo(post("[".repeat(10_000)));
    expect(open?.status).toBe(400);
    expect(JSON.parse(open?.body ?? "{}")).toMatchObject({ code: "malformed_json" });
    // As deep as fits under the body limit, and well formed.
    const depth = Math.floor((contract.bodyLimitBytes - 64) / 2);
    const [closed] = await answerTo(post(`${"[".repeat(depth)}${"]".repeat(depth)}`));
    expect(closed?.status).toBe(400);
    expect(JSON.parse(closed?.body ?? "{}")).toMatchObject({ code: "validation_failed" });
    const [inside] = await answerTo(
      post(`{"label":"Cog","sizeId":1,"shade":${"[".repeat(depth - 40)}${"]".repeat(depth - 40)}}`),
    );
    expect(inside?.status).toBe(400);
    const still = await fetch(`${suite.server.url}/healthz`);
    expect(still.status).toBe(200);
  });
});
