/**
 * Request bodies of every media type a contract can declare (issue 50), over the bodies fixture
 * (`test/fixtures/bodies.yaml`) served by the echo application: each valid body is accepted and
 * handed on as parsed (and coerced, for forms and multipart fields), each invalid one refused in
 * the Error shape naming the field; a body that is not required may be left out; an undeclared
 * type is 415 listing the declared ones; the body limit, multipart's part bound and
 * Content-Encoding hold for every type. Bounds are read off the fixture.
 */
import { gzipSync } from "node:zlib";
import { deref, type JsonObject, requestBodyLimitBytes } from "@animal-store/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MULTIPART_MAX_PARTS } from "../src/compiled-operation.js";
import { type EchoApp, startEchoApp } from "./support/echo-application.js";
import { loadFixture } from "./support/fixture-contract.js";
import { expectError } from "./support/serve.js";

const { spec } = loadFixture("bodies");
const LIMIT = requestBodyLimitBytes(spec);
const schemas = (spec.components as { schemas: Record<string, JsonObject> }).schemas;
const property = (schema: string, name: string) =>
  deref<JsonObject>(spec, ((schemas[schema] as JsonObject).properties as JsonObject)[name]);
const titleMax = property("Note", "title").maxLength as number;
const priorityMax = property("NoteForm", "priority").maximum as number;
const attachmentMax = property("NoteUpload", "attachment").maxLength as number;
const media = (path: string, method: string, type: string): JsonObject => {
  const operation = ((spec.paths as JsonObject)[path] as JsonObject)[method] as JsonObject;
  const content = (operation.requestBody as JsonObject).content as JsonObject;
  return (content[type] as JsonObject).schema as JsonObject;
};
const textMax = media("/notes", "post", "text/plain").maxLength as number;
const bytesMax = media("/attachments/{name}", "put", "application/octet-stream")
  .maxLength as number;
const declaredForNotes = Object.keys(
  (((spec.paths as JsonObject)["/notes"] as JsonObject).post as { requestBody: JsonObject })
    .requestBody.content as JsonObject,
);

let app: EchoApp;
beforeAll(async () => {
  app = await startEchoApp("bodies");
});
afterAll(() => app.close());

const send = (path: string, type: string | undefined, body: string | Uint8Array, method = "POST") =>
  app.api(path, {
    method,
    headers: type === undefined ? {} : { "content-type": type },
    body,
  });

async function accepted(response: Response): Promise<{ body: unknown; query: unknown }> {
  const text = await response.text();
  expect({ status: response.status, text }).toMatchObject({ status: 200 });
  return JSON.parse(text);
}

async function refused(response: Response, status: number, code: string, message: string) {
  const body = await expectError(response, status, code);
  expect(body.message).toContain(message);
}

const FORM = "application/x-www-form-urlencoded";
const MERGE = "application/merge-patch+json";

describe("JSON", () => {
  it("accepts a valid note, as sent", async () => {
    const note = { title: "Plan", due: "2024-02-29", reminders: ["2024-02-01", "2024-02-28"] };
    expect(
      (await accepted(await send("/notes", "application/json", JSON.stringify(note)))).body,
    ).toEqual(note);
  });

  it.each([
    [
      { title: "x".repeat(titleMax + 1) },
      `body/title must NOT have more than ${titleMax} characters`,
    ],
    [{ title: "Plan", due: "2023-02-30" }, 'body/due must match format "date"'],
    [
      { title: "Plan", reminders: ["2023-01-31", "2023-13-01"] },
      'body/reminders/1 must match format "date"',
    ],
    [{ title: "Plan", colour: "red" }, "body/colour must NOT have additional properties"],
    [{ due: "2024-01-01" }, "body must have required property 'title'"],
  ])("refuses %j naming the field", async (note, message) => {
    await refused(
      await send("/notes", "application/json", JSON.stringify(note)),
      400,
      "validation_failed",
      message,
    );
  });

  it("refuses text that is not JSON, and a required body left out", async () => {
    await refused(
      await send("/notes", "application/json", "{"),
      400,
      "malformed_json",
      "not valid JSON",
    );
    await refused(
      await app.api("/notes", { method: "POST" }),
      400,
      "validation_failed",
      "body is required",
    );
  });
});

describe("+json types and a body that is not required", () => {
  it("accepts a merge patch, and no body at all", async () => {
    const patch = { title: "Renamed", due: "2024-12-31" };
    expect(
      (await accepted(await send("/notes/7", MERGE, JSON.stringify(patch), "PATCH"))).body,
    ).toEqual(patch);
    expect((await accepted(await app.api("/notes/7", { method: "PATCH" }))).body).toBe("(none)");
  });

  it("refuses a patch that breaks its schema, another JSON type and another charset", async () => {
    await refused(
      await send("/notes/7", MERGE, JSON.stringify({ due: "2024-02-30" }), "PATCH"),
      400,
      "validation_failed",
      'body/due must match format "date"',
    );
    await refused(
      await send("/notes/7", "application/json", "{}", "PATCH"),
      415,
      "unsupported_media_type",
      `send one of ${MERGE}`,
    );
    await refused(
      await send("/notes/7", `${MERGE}; charset=utf-16`, "{}", "PATCH"),
      415,
      "unsupported_media_type",
      "utf-16",
    );
  });
});

describe("application/x-www-form-urlencoded", () => {
  it("accepts a form, its fields coerced to the schema's types", async () => {
    expect(
      (await accepted(await send("/notes", FORM, "title=Plan+B&priority=3&tags=a&tags=b%21"))).body,
    ).toEqual({ title: "Plan B", priority: 3, tags: ["a", "b!"] });
    // A field sent once where the schema has an array is an array of one.
    expect((await accepted(await send("/notes", FORM, "title=P&priority=1&tags=a"))).body).toEqual({
      title: "P",
      priority: 1,
      tags: ["a"],
    });
  });

  it.each([
    [`title=P&priority=${priorityMax + 1}`, `body/priority must be <= ${priorityMax}`],
    ["title=P&priority=high", "body/priority must be integer"],
    ["priority=1", "body must have required property 'title'"],
    ["title=P&priority=1&colour=red", "body/colour must NOT have additional properties"],
    ["title=%zz&priority=1", `body is not valid ${FORM}`],
  ])("refuses %s naming the field", async (form, message) => {
    await refused(await send("/notes", FORM, form), 400, "validation_failed", message);
  });
});

describe("multipart/form-data", () => {
  const upload = (fields: Record<string, string>, file?: Uint8Array) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    if (file) data.set("attachment", new Blob([file], { type: "image/png" }), "scan.png");
    return data;
  };

  it("accepts parts, a file handed on as a file, fields coerced", async () => {
    const { body } = await accepted(
      await app.api("/notes", {
        method: "POST",
        body: upload({ title: "Scan", pages: "2" }, new Uint8Array(attachmentMax)),
      }),
    );
    expect(body).toEqual({
      title: "Scan",
      pages: 2,
      attachment: { filename: "scan.png", contentType: "image/png", size: attachmentMax },
    });
  });

  it("refuses a missing file, a file over its maxLength (bytes) and a bad field", async () => {
    const post = (body: FormData) => app.api("/notes", { method: "POST", body });
    await refused(
      await post(upload({ title: "Scan" })),
      400,
      "validation_failed",
      "body must have required property 'attachment'",
    );
    await refused(
      await post(upload({ title: "Scan" }, new Uint8Array(attachmentMax + 1))),
      400,
      "validation_failed",
      `body/attachment must NOT have more than ${attachmentMax} characters`,
    );
    await refused(
      await post(upload({ title: "Scan", pages: "0" }, new Uint8Array(1))),
      400,
      "validation_failed",
      "body/pages must be >= 1",
    );
  });

  it(`refuses more than ${MULTIPART_MAX_PARTS} parts with 413, and a body cut short with 400`, async () => {
    const fields = Object.fromEntries(
      Array.from({ length: MULTIPART_MAX_PARTS + 1 }, (_, i) => [`f${i}`, "1"]),
    );
    const many = new Request("http://x", { method: "POST", body: upload(fields) });
    const bytes = new Uint8Array(await many.arrayBuffer());
    expect(bytes.length).toBeLessThan(LIMIT);
    await refused(
      await send("/notes", many.headers.get("content-type") as string, bytes),
      413,
      "payload_too_large",
      `${MULTIPART_MAX_PARTS} parts`,
    );
    await refused(
      await send(
        "/notes",
        "multipart/form-data; boundary=xyz",
        '--xyz\r\nContent-Disposition: form-data; name="title"\r\n\r\nP',
      ),
      400,
      "validation_failed",
      "multipart/form-data",
    );
  });
});

describe("text and bytes", () => {
  it("accepts text/plain, any text/* where text/* is declared, and bytes as they came", async () => {
    expect((await accepted(await send("/notes", "text/plain; charset=utf-8", "héllo"))).body).toBe(
      "héllo",
    );
    expect((await accepted(await send("/logs", "text/csv", "a,b\n1,2"))).body).toBe("a,b\n1,2");
    const bytes = new Uint8Array([0, 1, 0xff]);
    expect(
      (await accepted(await send("/attachments/readme", "application/octet-stream", bytes, "PUT")))
        .body,
    ).toEqual({ bytes: 3, hex: "0001ff" });
    // No Content-Type: the bytes are application/octet-stream (RFC 9110 section 8.3).
    expect(
      (await accepted(await send("/attachments/readme", undefined, bytes, "PUT"))).body,
    ).toEqual({ bytes: 3, hex: "0001ff" });
  });

  it("refuses text over its maxLength, bytes that are not UTF-8, and bytes over maxLength", async () => {
    await refused(
      await send("/notes", "text/plain", "x".repeat(textMax + 1)),
      400,
      "validation_failed",
      `body must NOT have more than ${textMax} characters`,
    );
    await refused(
      await send("/notes", "text/plain", new Uint8Array([0x68, 0xff])),
      400,
      "validation_failed",
      "body is not valid text/plain",
    );
    await refused(
      await send(
        "/attachments/readme",
        "application/octet-stream",
        new Uint8Array(bytesMax + 1),
        "PUT",
      ),
      400,
      "validation_failed",
      `body must NOT have more than ${bytesMax} characters`,
    );
  });

  it("refuses an undeclared type with 415 listing the declared ones", async () => {
    await refused(
      await send("/notes", "image/png", "x"),
      415,
      "unsupported_media_type",
      `send one of ${declaredForNotes.join(", ")}`,
    );
    await refused(
      await send("/logs", "application/json", "{}"),
      415,
      "unsupported_media_type",
      "text/*",
    );
  });
});

describe("the body limit and Content-Encoding, for every type", () => {
  it("decodes a gzip form and gzip bytes", async () => {
    const form = await app.api("/notes", {
      method: "POST",
      headers: { "content-type": FORM, "content-encoding": "gzip" },
      body: gzipSync("title=Zip&priority=2"),
    });
    expect((await accepted(form)).body).toEqual({ title: "Zip", priority: 2 });
    const bytes = await app.api("/attachments/zip", {
      method: "PUT",
      headers: { "content-type": "application/octet-stream", "content-encoding": "gzip" },
      body: gzipSync(Buffer.from([7, 7])),
    });
    expect((await accepted(bytes)).body).toEqual({ bytes: 2, hex: "0707" });
  });

  it.each([
    ["text/plain", "/notes", "POST"],
    [FORM, "/notes", "POST"],
    ["application/octet-stream", "/attachments/big", "PUT"],
    ["text/csv", "/logs", "POST"],
  ])("%s over the limit is 413", async (type, path, method) => {
    await refused(
      await send(path, type, "x".repeat(LIMIT + 1), method),
      413,
      "payload_too_large",
      `${LIMIT} bytes`,
    );
  });

  it("refuses an encoding it does not decode, for a text body too", async () => {
    const response = await app.api("/logs", {
      method: "POST",
      headers: { "content-type": "text/plain", "content-encoding": "zstd" },
      body: "x",
    });
    await refused(response, 415, "unsupported_encoding", "zstd");
  });
});
