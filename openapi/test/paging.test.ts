// Paging, the control the interface document leaves open for a list it calls paginated: the
// choices the spec makes (a Link rel="next" with an opaque cursor, the body still the bare Pets
// array), checked for consistency within the spec: nothing here restates the interface document.
import { describe, expect, it } from "vitest";
import { deref, type Json, spec } from "./spec.js";

const list = () => spec.paths["/pets"].get;
const parameter = (name: string) =>
  deref(list().parameters.find((p: Json) => deref(p).name === name));
const schema = (name: string) => spec.components.schemas[name];
const ok = () => deref(list().responses["200"]);

describe("paging (the list is described as paginated; its controls are the spec's)", () => {
  it("pages only through the page size and the cursor of a next link: no offset, page number or total", () => {
    const { cursorParameter, pageSizeParameter } = list()["x-pagination"];
    const names = list().parameters.map((p: Json) => deref(p).name);
    const filters = names.filter((n: string) => n !== cursorParameter && n !== pageSizeParameter);
    expect(names).toEqual(expect.arrayContaining([cursorParameter, pageSizeParameter]));
    // Whatever else the list takes filters it: the cursor is bound to it.
    for (const name of filters) expect(deref(parameter(name).schema).enum).toBeDefined();
    // The last page has no next link: Link is optional, unless the list is deprecated and so
    // carries its successor's link on every page (RFC 8288: one field, several links).
    expect(deref(ok().headers.Link).required).toBe(list().deprecated === true);
  });

  it("keeps the body a bare Pets array, never longer than the page size's maximum", () => {
    expect(ok().content["application/json"].schema.$ref).toBe("#/components/schemas/Pets");
    expect(schema("Pets").type).toBe("array");
    const size = parameter(list()["x-pagination"].pageSizeParameter);
    expect(schema("Pets").maxItems).toBe(deref(size.schema).maximum);
  });

  it("declares the cursor an opaque string, with examples the Link example uses", () => {
    const cursor = parameter(list()["x-pagination"].cursorParameter);
    expect(cursor).toMatchObject({ in: "query", required: false, allowReserved: true });
    // Open on purpose: every bad cursor reaches the server's own check and gets a cursor code.
    expect(cursor.schema).toEqual({ type: "string", minLength: 1 });
    const examples = Object.values(cursor.examples).map((e: Json) => deref(e).value);
    expect(examples.length).toBeGreaterThan(1);
    const link = deref(ok().headers.Link);
    // The example's next link, among whatever other links the field carries (RFC 8288).
    const nexts = String(link.example)
      .split(/,\s*(?=<)/)
      .filter((one) => /;\s*rel="next"$/.test(one));
    expect(nexts, `the next link in ${link.example}`).toHaveLength(1);
    expect(nexts[0]).toMatch(
      new RegExp(`^<\\?[^>]*${cursor.name}=${examples[0]}[^>]*>; rel="next"$`),
    );
    if (link.schema.pattern !== undefined) {
      expect(link.example).toMatch(new RegExp(link.schema.pattern));
    }
  });

  it("gives each bad cursor a code of its own, in the open Error enum and the error table", () => {
    const examples = deref(list().responses["400"]).content["application/json"].examples;
    const codes = Object.values(examples).map((e: Json) => deref(e).value.code);
    const cursorCodes = codes.filter((code: string) => code !== "validation_failed");
    expect(cursorCodes.length).toBe(2);
    expect(schema("Error").properties.code["x-open-enum"]).toBe(true);
    for (const code of cursorCodes) {
      expect(schema("Error").properties.code.enum).toContain(code);
      expect(spec.info.description).toContain(`| \`${code}\` | 400 |`);
    }
  });
});
