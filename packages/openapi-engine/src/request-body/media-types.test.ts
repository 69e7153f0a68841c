import { describe, expect, it } from "vitest";
import { EngineError } from "../errors.js";
import { compileRequestBody, parseRequestBody, type SelectedMediaType } from "./media-types.js";
import type { UploadedFile } from "./parse-multipart.js";

const limits = { parts: 4, partBytes: 16 };
const schema = { type: "object" };

// A fixture operation's request body, declaring one media type of each family.
const body = compileRequestBody(
  {
    required: true,
    content: {
      "application/json": { schema },
      "application/x-www-form-urlencoded": { schema },
      "multipart/form-data": { schema },
      "application/octet-stream": { schema: {} },
      "text/plain; charset=utf-8": { schema: { type: "string" } },
      "text/*": { schema: { type: "string" } },
      "application/*+json": { schema },
    },
  },
  limits,
);

async function parse(contentType: string | undefined, bytes: Buffer | string | undefined) {
  return parseRequestBody(
    body,
    contentType,
    typeof bytes === "string" ? Buffer.from(bytes) : bytes,
  );
}

function refused(outcome: unknown, status: number, message?: RegExp) {
  expect(outcome).toBeInstanceOf(EngineError);
  const error = outcome as EngineError;
  expect(error.status).toBe(status);
  if (message) expect(error.message).toMatch(message);
  return error;
}

function pick(contentType: string | undefined): SelectedMediaType {
  const selected = body.select(contentType);
  expect(selected).not.toBeInstanceOf(EngineError);
  return selected as SelectedMediaType;
}

describe("selecting the declared media type", () => {
  it("prefers the most specific key", () => {
    expect(pick("application/json").key).toBe("application/json");
    expect(pick("Application/JSON; charset=UTF-8").key).toBe("application/json");
    expect(pick("text/plain; charset=UTF-8").key).toBe("text/plain; charset=utf-8");
    expect(pick("text/plain").key).toBe("text/*");
    expect(pick("text/csv").key).toBe("text/*");
    expect(pick("application/merge-patch+json").key).toBe("application/*+json");
    expect(pick("application/merge-patch+json").family).toBe("json");
    expect(pick(undefined).key).toBe("application/octet-stream");
  });
  it("refuses 415 listing the declared types when none matches", () => {
    const error = refused(body.select("image/png"), 415, /image\/png is not accepted/);
    expect(error.message).toContain("application/json, application/x-www-form-urlencoded");
    refused(body.select("not a type"), 415);
    const jsonOnly = compileRequestBody({ content: { "application/json": {} } }, limits);
    // With JSON alone declared, the catalogue's own message.
    refused(jsonOnly.select(undefined), 415, /^Content-Type must be application\/json\.$/);
    const two = compileRequestBody(
      { content: { "application/json": {}, "text/plain": {} } },
      limits,
    );
    refused(two.select(undefined), 415, /needs a Content-Type/);
    refused(
      compileRequestBody({ content: {} }, limits).select("application/json"),
      415,
      /takes no request body/,
    );
  });
  it("*/* takes anything, parsing it by its own type", async () => {
    const anything = compileRequestBody({ content: { "*/*": {} } }, limits);
    expect(await parseRequestBody(anything, "application/json", Buffer.from("[1]"))).toMatchObject({
      value: [1],
    });
    expect(await parseRequestBody(anything, "image/png", Buffer.from([1, 2]))).toMatchObject({
      value: Buffer.from([1, 2]),
    });
  });
  it("refuses at compile a key that is no media range", () => {
    expect(() => compileRequestBody({ content: { json: {} } }, limits)).toThrow(/"json"/);
  });
});

describe("required", () => {
  it("a required body that is absent is 400", async () => {
    refused(await parse("application/json", undefined), 400, /body is required/);
    refused(await parse("application/json", ""), 400, /body is required/);
  });
  it("an optional body that is absent is undefined, without error", async () => {
    const optional = compileRequestBody({ content: { "application/json": {} } }, limits);
    expect(await parseRequestBody(optional, undefined, undefined)).toEqual({ value: undefined });
    const empty = await parseRequestBody(optional, "application/json", Buffer.alloc(0));
    expect(empty).not.toBeInstanceOf(EngineError);
    expect((empty as { value: unknown }).value).toBe(undefined);
    expect(optional.required).toBe(false);
  });
});

describe("JSON and +json", () => {
  it("parses JSON, with a BOM, in UTF-8", async () => {
    expect(await parse("application/json", '{"a":1}')).toMatchObject({ value: { a: 1 } });
    expect(await parse("application/vnd.x+json", "\ufeff[true]")).toMatchObject({ value: [true] });
  });
  it("refuses what is not JSON, not UTF-8, a lone surrogate, another charset", async () => {
    expect(refused(await parse("application/json", "{"), 400, /not valid JSON/).code).toBe(
      "malformed_json",
    );
    refused(await parse("application/json", Buffer.from([0x22, 0xff, 0x22])), 400, /not UTF-8/);
    refused(await parse("application/json", '"\\ud800"'), 400, /surrogate/);
    refused(await parse("application/json; charset=latin1", "{}"), 415, /latin1/);
    refused(await parse("application/vnd.x+json; charset=utf-16", "{}"), 415, /utf-16/);
  });
});

describe("application/x-www-form-urlencoded", () => {
  const form = "application/x-www-form-urlencoded";
  it("gives an object of strings, arrays for repeated names, + as space", async () => {
    const parsed = (await parse(form, "a=1&b=x+y%21&a=2&a=3&empty=&flag&__proto__=p")) as {
      value: Record<string, unknown>;
    };
    expect({ ...parsed.value }).toEqual({
      a: ["1", "2", "3"],
      b: "x y!",
      empty: "",
      flag: "",
      ["__proto__"]: "p",
    });
    expect(Object.getPrototypeOf(parsed.value)).toBe(null);
    expect(await parse(form, "")).toMatchObject({ value: {} });
    expect(await parse(form, "n=%C3%A9")).toMatchObject({ value: { n: "é" } });
  });
  it("refuses broken escapes and percent-encoded bytes that are not UTF-8", async () => {
    refused(await parse(form, "a=%zz"), 400, /percent-encoded/);
    refused(await parse(form, "a=%ff"), 400, /percent-encoded/);
    refused(await parse(form, Buffer.from([0x61, 0x3d, 0xff])), 400, /not UTF-8/);
  });
});

describe("multipart/form-data", () => {
  const boundary = "XyZ";
  const type = `multipart/form-data; boundary=${boundary}`;
  const multipart = (...parts: string[]) =>
    `${parts.map((part) => `--${boundary}\r\n${part}\r\n`).join("")}--${boundary}--\r\n`;
  const field = (name: string, value: string) =>
    `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
  it("gives text fields as strings and files as buffers with name and type", async () => {
    const parsed = (await parse(
      type,
      multipart(
        field("title", "héllo"),
        field("tag", "a"),
        field("tag", "b"),
        'Content-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nx,y\n1,2',
      ),
    )) as { value: Record<string, unknown> };
    expect(parsed.value.title).toBe("héllo");
    expect(parsed.value.tag).toEqual(["a", "b"]);
    const file = parsed.value.file as UploadedFile;
    expect(file).toEqual({
      filename: "a.csv",
      contentType: "text/csv",
      data: Buffer.from("x,y\n1,2"),
    });
  });
  it("bounds the number of parts and each part's size (413)", async () => {
    refused(
      await parse(
        type,
        multipart(
          field("a", "1"),
          field("b", "2"),
          field("c", "3"),
          field("d", "4"),
          field("e", "5"),
        ),
      ),
      413,
      /4 parts/,
    );
    refused(await parse(type, multipart(field("a", "x".repeat(17)))), 413, /16 bytes in part a/);
    refused(
      await parse(
        type,
        multipart(
          `Content-Disposition: form-data; name="f"; filename="f"\r\n\r\n${"x".repeat(17)}`,
        ),
      ),
      413,
      /16 bytes in part f/,
    );
    // At the bounds exactly: accepted.
    expect(
      await parse(
        type,
        multipart(field("a", "x".repeat(16)), field("b", "2"), field("c", "3"), field("d", "4")),
      ),
    ).toMatchObject({ value: { a: "x".repeat(16) } });
  });
  it("refuses a body without boundary, or cut short (400)", async () => {
    refused(await parse("multipart/form-data", multipart(field("a", "1"))), 400, /multipart/);
    refused(await parse(type, `--${boundary}\r\n${field("a", "1")}`), 400, /multipart/);
  });
});

describe("application/octet-stream", () => {
  it("gives the bytes as they came", async () => {
    const bytes = Buffer.from([0, 255, 1]);
    const parsed = (await parse("application/octet-stream", bytes)) as { value: Buffer };
    expect(parsed.value.equals(bytes)).toBe(true);
    expect(await parse("application/octet-stream", Buffer.alloc(0))).toMatchObject({
      value: Buffer.alloc(0),
    });
  });
});

describe("text/*", () => {
  it("decodes UTF-8 by default and the charset the request names", async () => {
    expect(await parse("text/plain", "héllo")).toMatchObject({ value: "héllo" });
    expect(await parse("text/csv; charset=ISO-8859-1", Buffer.from([0x63, 0xe9]))).toMatchObject({
      value: "cé",
    });
  });
  it("refuses invalid UTF-8 and an unknown charset", async () => {
    refused(await parse("text/plain; charset=utf-8", Buffer.from([0x61, 0xc3])), 400, /not utf-8/);
    refused(await parse("text/plain", Buffer.from([0xff])), 400, /not utf-8/);
    refused(await parse("text/plain; charset=klingon", "a"), 415, /klingon/);
  });
});
