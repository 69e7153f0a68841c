/**
 * What the HTTP layer refuses or would have answered itself, walked with raw sockets on the real
 * start sequence over the widgets fixture: HTTP/1.0 framing with Transfer-Encoding, Host rules, Expect, CONNECT, TRACE and unknown
 * methods, the request target's bound (414) apart from the headers' (431), and the body limit
 * enforced before the body is read. Every answer is in the Error shape with the rate-limit
 * headers and a request id. Each describe names the planted fault it was seen to fail on.
 */
import { describe, expect, it } from "vitest";
import {
  openSocket,
  parseAnswers,
  type RawAnswer,
  rawExchange,
  readUntilClose,
} from "./support/raw-http.js";
import { contract, useFixtureServer } from "./support/serve.js";
import { pageSize } from "./support/widgets.js";

const suite = useFixtureServer("edge-refusals");
const base = contract.basePath;
const auth = () => `Authorization: Bearer ${suite.key}\r\n`;
const answersTo = async (bytes: string) => parseAnswers(await rawExchange(suite.server.url, bytes));

/** One answer, in the Error shape with `code`, the rate-limit headers and a request id. */
function expectErrorShape(answers: RawAnswer[], status: number, code: string): RawAnswer {
  expect(answers.map((a) => a.status)).toEqual([status]);
  const answer = answers[0] as RawAnswer;
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  expect(JSON.parse(answer.body)).toEqual({ code, message: expect.any(String), status });
  for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
    expect(answer.headers[name], name).toMatch(/^\d+$/);
  }
  expect(answer.headers["x-request-id"]).toBeTruthy();
  return answer;
}

describe("HTTP/1.0 with Transfer-Encoding (planted fault: the framing check removed)", () => {
  it("is refused 400 malformed_request and closed; the request behind it is never served", async () => {
    const name = `smuggled-${Date.now()}`;
    const smuggled = JSON.stringify({ label: name, sizeId: 1 });
    const answers = await answersTo(
      `POST ${base}/widgets HTTP/1.0\r\nHost: x\r\n${auth()}Content-Type: application/json\r\n` +
        "Transfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n0\r\n\r\n" +
        `POST ${base}/widgets HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\n` +
        `Content-Length: ${smuggled.length}\r\n\r\n${smuggled}`,
    );
    const answer = expectErrorShape(answers, 400, "malformed_request");
    expect(answer.headers.connection).toBe("close");
    const listed = await fetch(suite.api(`/widgets?${pageSize.name}=${pageSize.max}`), {
      headers: { authorization: `Bearer ${suite.key}` },
    });
    expect(JSON.stringify(await listed.json())).not.toContain(name);
  });

  it("serves HTTP/1.0 without Transfer-Encoding (and without Host)", async () => {
    const text = await rawExchange(suite.server.url, "GET /healthz HTTP/1.0\r\n\r\n");
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe("Host (planted fault: Host not checked, or Node's bare 400 for a missing one)", () => {
  it.each([
    ["missing", ""],
    ["repeated", "Host: x\r\nHost: y\r\n"],
    ["repeated, the same value", "Host: x\r\nhost: x\r\n"],
    ["invalid", "Host: bad host/with@junk\r\n"],
  ])("%s: 400 malformed_request", async (_label, host) => {
    const answers = await answersTo(
      `GET ${base}/widgets HTTP/1.1\r\n${host}${auth()}Connection: close\r\n\r\n`,
    );
    expectErrorShape(answers, 400, "malformed_request");
  });

  it("pipelined behind a served request: answered after it, in order, and nothing after it", async () => {
    const get = (host: string) =>
      `GET ${base}/widgets?${pageSize.name}=1 HTTP/1.1\r\n${host}${auth()}\r\n`;
    const answers = await answersTo(get("Host: x\r\n") + get("") + get("Host: x\r\n"));
    expect(answers.map((a) => a.status)).toEqual([200, 400]);
    expect(JSON.parse(answers[1]?.body ?? "{}")).toMatchObject({ code: "malformed_request" });
  });

  it.each([["localhost:8080"], ["[::1]:8080"], ["api.widget-works.example"], ["127.0.0.1"]])(
    "a valid Host is served: %s",
    async (host) => {
      const [answer] = await answersTo(
        `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer?.status).toBe(200);
    },
  );
});

describe("answers Node would write itself (planted fault: Node's bare 417, silent CONNECT, automatic 100 Continue)", () => {
  it.each([
    [
      "an unsupported Expect",
      `GET ${base}/widgets HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\n\r\n`,
      417,
      "expectation_failed",
    ],
    [
      "CONNECT, authority form",
      "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
      400,
      "malformed_request",
    ],
    [
      "CONNECT, origin form",
      `CONNECT ${base}/widgets HTTP/1.1\r\nHost: x\r\n\r\n`,
      400,
      "malformed_request",
    ],
    [
      "a method HTTP does not define",
      `FOO ${base}/widgets HTTP/1.1\r\nHost: x\r\n\r\n`,
      400,
      "malformed_request",
    ],
  ])("%s: %s %s", async (_label, bytes, status, code) => {
    const answer = expectErrorShape(
      await answersTo(bytes as string),
      status as number,
      code as string,
    );
    expect(answer.headers.connection).toBe("close");
  });

  it("TRACE: 405 method_not_allowed with Allow", async () => {
    const answers = await answersTo(
      `TRACE ${base}/widgets HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`,
    );
    const answer = expectErrorShape(answers, 405, "method_not_allowed");
    expect(answer.headers.allow).toContain("GET");
  });

  it("sends no 100 Continue when the body will not be read (401 without a key)", async () => {
    const text = await rawExchange(
      suite.server.url,
      `POST ${base}/widgets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        "Content-Length: 30\r\nExpect: 100-continue\r\n\r\n",
    );
    expect(text).not.toContain("100 Continue");
    expectErrorShape(parseAnswers(text), 401, "unauthorized");
  });

  it("sends 100 Continue just before the body is read, and the body is served", async () => {
    const body = JSON.stringify({ label: "Continued", sizeId: 1 });
    const socket = await openSocket(suite.server.url);
    const text = readUntilClose(socket);
    socket.write(
      `POST ${base}/widgets HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    await new Promise<void>((resolve) =>
      socket.on("data", (chunk) => String(chunk).includes("100 Continue") && resolve()),
    );
    socket.end(body);
    const [, created] = (await text).split("\r\n\r\n");
    expect(await text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
    expect(created).toBeDefined();
  });
});

describe("the request target's bound (planted fault: the target not checked, 431 for an overflowing one)", () => {
  const target = (length: number) =>
    `${base}/widgets?${"a".repeat(length - `${base}/widgets?`.length)}`;

  it("is the contract's: a target one byte over gets 414 uri_too_long, one at it does not", async () => {
    const over = await answersTo(
      `GET ${target(contract.targetLimitBytes + 1)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expectErrorShape(over, 414, "uri_too_long");
    const [at] = await answersTo(
      `GET ${target(contract.targetLimitBytes)} HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`,
    );
    expect(at?.status).not.toBe(414);
  });

  it("a 100 KB target gets 414, and 100 KB of headers still 431", async () => {
    expectErrorShape(
      await answersTo(`GET ${target(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
      414,
      "uri_too_long",
    );
    expectErrorShape(
      await answersTo(
        `GET ${base}/widgets HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(100_000)}\r\n\r\n`,
      ),
      431,
      "headers_too_large",
    );
  });
});

describe("the body limit before the body (planted fault: the declared length not checked, or an over-limit body drained)", () => {
  it("a declared Content-Length over the limit gets 413 at once: no body sent, no 100 Continue", async () => {
    for (const expect100 of ["", "Expect: 100-continue\r\n"]) {
      const text = await rawExchange(
        suite.server.url,
        `POST ${base}/widgets HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\n` +
          `Content-Length: ${contract.bodyLimitBytes * 1000}\r\n${expect100}\r\n`,
      );
      expect(text).not.toContain("100 Continue");
      expectErrorShape(parseAnswers(text), 413, "payload_too_large");
    }
  });

  it("a chunked body is cut at the limit: 413, then the connection closes while the client sends", async () => {
    const socket = await openSocket(suite.server.url);
    const text = readUntilClose(socket);
    socket.write(
      `POST ${base}/widgets HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\n` +
        'Transfer-Encoding: chunked\r\n\r\n1\r\n"\r\n',
    );
    const chunk = `400\r\n${"a".repeat(0x400)}\r\n`;
    const timer = setInterval(() => socket.writable && socket.write(chunk), 5);
    try {
      expectErrorShape(parseAnswers(await text), 413, "payload_too_large");
    } finally {
      clearInterval(timer);
    }
  });
});
