/**
 * A body is kept exactly or refused: lone surrogate escapes and bytes that are not UTF-8 get 400
 * `malformed_json` instead of a 201 with U+FFFD in place of what was sent; a pattern refusing C1
 * controls (the fixture's `Label`) is applied as written. Content-Encoding: corrupt data gets 400
 * `malformed_encoding`, an unsupported encoding 415 `unsupported_encoding`. Each describe names
 * the planted fault it was seen to fail on.
 */
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { useFixtureServer } from "./support/serve.js";

const suite = useFixtureServer("body-text");

/** POSTs `body` (raw JSON text or bytes) to /widgets with `headers` added. */
function post(body: string | Buffer, headers: Record<string, string> = {}) {
  return fetch(suite.api("/widgets"), {
    method: "POST",
    headers: {
      authorization: `Bearer ${suite.key}`,
      "content-type": "application/json",
      ...headers,
    },
    body,
  });
}

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { code: string; message: string };
  expect(body.code).toBe(code);
  return body;
}

const widget = (labelJson: string) => `{"label":"${labelJson}","sizeId":1}`;

describe("lone surrogates and bytes that are not UTF-8 (planted fault: the text check removed)", () => {
  it.each([
    ["a lone high surrogate", "ab\\ud800cd"],
    ["a lone low surrogate", "ab\\uDC00cd"],
    ["a high surrogate at the end", "ab\\uD83D"],
    ["a high surrogate before another escape", "ab\\ud83d\\u0041"],
    ["two high surrogates", "\\ud83d\\ud83d\\ude00"],
  ])("%s: 400 malformed_json saying why", async (_label, name) => {
    const body = await expectError(await post(widget(name)), 400, "malformed_json");
    expect(body.message).toContain("surrogate");
  });

  it("bytes that are not UTF-8: 400 malformed_json saying why", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"label":"ab'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","sizeId":1}'),
    ]);
    const body = await expectError(await post(bytes), 400, "malformed_json");
    expect(body.message).toContain("UTF-8");
  });

  it.each([
    ["a surrogate pair as escapes", "\\ud83d\\ude00", "\u{1F600}"],
    ["an escaped backslash before u", "a\\\\ud800", "a\\ud800"],
    ["raw UTF-8 beyond the BMP", "\u{1F600}x", "\u{1F600}x"],
  ])("%s is stored and echoed exactly", async (_label, labelJson, label) => {
    const response = await post(widget(labelJson));
    expect(response.status).toBe(201);
    expect(((await response.json()) as { label: string }).label).toBe(label);
  });
});

describe("a pattern refusing C1 controls is applied as written (planted fault: the pattern without U+0080-U+009F)", () => {
  it.each([["\\u0080"], ["\\u009b"], ["\\u009f"]])(
    "a label with %s: 400 validation_failed",
    async (c1) => {
      const body = await expectError(await post(widget(`a${c1}b`)), 400, "validation_failed");
      expect(body.message).toContain("body/label");
    },
  );

  it("the characters around them are labels: U+007E and U+00A0", async () => {
    for (const label of ["a~b", "a\u00a0b"]) {
      const response = await post(widget(label));
      expect(response.status).toBe(201);
      expect(((await response.json()) as { label: string }).label).toBe(label);
    }
  });
});

describe("Content-Encoding (planted fault: zlib's errors as validation_failed, an unknown encoding as unsupported_media_type)", () => {
  const json = widget("Zipped");
  it.each([
    ["gzip", Buffer.from("garbage")],
    ["gzip", gzipSync(json).subarray(0, 12)],
    ["deflate", Buffer.from("garbage")],
    ["br", Buffer.from("garbage")],
  ])("corrupt %s data: 400 malformed_encoding", async (encoding, bytes) => {
    await expectError(
      await post(bytes, { "content-encoding": encoding }),
      400,
      "malformed_encoding",
    );
  });

  it.each([["zstd"], ["compress"], ["gzip, gzip"]])(
    "%s: 415 unsupported_encoding",
    async (encoding) => {
      const body = await expectError(
        await post(json, { "content-encoding": encoding }),
        415,
        "unsupported_encoding",
      );
      expect(body.message).toContain(encoding);
    },
  );

  it.each([
    ["gzip", gzipSync(json)],
    ["deflate", deflateSync(json)],
    ["br", brotliCompressSync(json)],
    ["identity", Buffer.from(json)],
  ])("%s is read", async (encoding, bytes) => {
    expect((await post(bytes, { "content-encoding": encoding })).status).toBe(201);
  });
});
