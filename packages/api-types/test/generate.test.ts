// The drift gate and the generator itself: the committed types are exactly what the spec
// produces, and a spec change produces different types.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundledSpecPath as bundled } from "@animal-store/openapi";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM script without declarations
import { HEADER, renderTypes } from "../scripts/render-types.mjs";

const committed = readFileSync(new URL("../src/generated/openapi.ts", import.meta.url), "utf8");
const scratch = mkdtempSync(join(tmpdir(), "animal-store-types-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("generated types", () => {
  it("are marked as generated", () => {
    expect(committed.startsWith(HEADER)).toBe(true);
    expect(committed).toMatch(/Do not make direct changes/);
  });

  it("equal what the bundled spec produces (no drift)", async () => {
    expect(await renderTypes(bundled)).toBe(committed);
  });

  it("name each parameter the spec gives a default, and no other", async () => {
    const spec = JSON.parse(readFileSync(bundled, "utf8"));
    const parameters = spec.components.parameters as Record<
      string,
      { name: string; schema?: { default?: unknown } }
    >;
    const defaulted = Object.entries(parameters).find(
      ([, parameter]) => parameter.schema?.default !== undefined,
    );
    expect(defaulted).toBeDefined();
    const [, parameter] = defaulted as [string, { name: string; schema: { default?: unknown } }];
    const line = new RegExp(`query: "${parameter.name}"`);
    expect(committed).toMatch(line);
    delete parameter.schema.default;
    const path = join(scratch, "no-default.json");
    writeFileSync(path, JSON.stringify(spec));
    expect(await renderTypes(path)).not.toMatch(line);
  });

  it("change when a property is added to a schema", async () => {
    const spec = JSON.parse(readFileSync(bundled, "utf8"));
    const added = "generateTestProperty";
    // biome-ignore lint/suspicious/noExplicitAny: a parsed contract, walked loosely by the test
    const schema = Object.values(spec.components.schemas as Record<string, any>).find(
      (candidate) => candidate.properties !== undefined,
    );
    // A property the spec already had would prove nothing.
    expect(Object.keys(schema.properties)).not.toContain(added);
    schema.properties[added] = { type: "string" };
    const path = join(scratch, "openapi.json");
    writeFileSync(path, JSON.stringify(spec));
    const fresh = await renderTypes(path);
    expect(fresh).not.toBe(committed);
    expect(fresh).toMatch(new RegExp(`${added}\\?: string;`));
  });
});
