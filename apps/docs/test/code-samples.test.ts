// The code samples the docs plugin writes into the page (x-codeSamples), read back from the built
// page: a curl command and an @animal-store/client call for every operation of the spec, built
// from its examples; every TypeScript sample type-checks against the built client, and a sample
// that no longer compiles fails the check. Also the rate-limit and deprecation notes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isJsonObject, operationPagination } from "@animal-store/openapi";
import { enumOf, first, resolve } from "@animal-store/test-support/spec";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM plugin without declarations
import { SAMPLE_LABELS } from "../plugins/animal-store-docs.js";
import { operations, pageDefinition, pageOperation, spec } from "./page.js";

const require = createRequire(import.meta.url);
const page = pageDefinition();
const scratch = mkdtempSync(join(tmpdir(), "animal-store-docs-samples-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The samples of an operation on the page, by label. */
function samplesOf(path: string, method: string): Record<string, string> {
  const { samples } = pageOperation(path, method, page);
  return Object.fromEntries(samples.map((s) => [s.label, s.source]));
}

/** Type errors of each file, compiled as a user's module importing the built client. */
function typeErrors(files: Record<string, string>): Record<string, string[]> {
  const clientTypes = require.resolve("@animal-store/client").replace(/\.js$/, ".d.ts");
  const names = Object.entries(files).map(([name, source]) => {
    const file = join(scratch, `${name}.ts`);
    writeFileSync(file, source);
    return file;
  });
  const program = ts.createProgram(names, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    types: ["node"],
    typeRoots: [fileURLToPath(new URL("../node_modules/@types", import.meta.url))],
    paths: { "@animal-store/client": [clientTypes] },
  });
  const errors: Record<string, string[]> = {};
  for (const [i, name] of Object.keys(files).entries()) {
    const source = program.getSourceFile(names[i] ?? "");
    errors[name] = ts
      .getPreEmitDiagnostics(program, source)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  }
  return errors;
}

describe("code samples on the docs page", () => {
  const all = operations();

  it.each(all.map(({ path, method, op }) => [op.operationId, path, method, op] as const))(
    "%s: a curl command built from the spec's examples",
    (_id, path, method, op) => {
      const curl = samplesOf(path, method)[SAMPLE_LABELS.curl] ?? "";
      expect(curl).toMatch(new RegExp(`^curl -X ${method.toUpperCase()} 'https://`));
      expect(curl).toContain('-H "Authorization: Bearer $API_KEY"');
      const cursor = operationPagination(spec, op)?.cursorParameter;
      for (const parameter of op.parameters) {
        const examples = isJsonObject(parameter.examples) ? parameter.examples : {};
        const value = String(resolve(first(examples)).value);
        if (parameter.name === cursor) {
          // The first page: a client never makes a cursor up; the next link carries it.
          expect(curl).not.toContain(`${String(parameter.name)}=`);
          expect(curl).toContain('rel="next"');
          continue;
        }
        const shown = parameter.in === "path" ? `/${value}` : `${String(parameter.name)}=${value}`;
        expect(curl).toContain(shown);
      }
      const content = isJsonObject(op.requestBody?.content) ? op.requestBody.content : {};
      const media = content["application/json"];
      if (isJsonObject(media) && isJsonObject(media.examples)) {
        const body = resolve(first(media.examples)).value;
        expect(curl).toContain(`-d '${JSON.stringify(body)}'`);
      }
    },
  );

  it.each(all.map(({ path, method, op }) => [op.operationId, path, method, op] as const))(
    "%s: an @animal-store/client call of the same method and path",
    (_id, path, method, op) => {
      const source = samplesOf(path, method)[SAMPLE_LABELS.client] ?? "";
      expect(source).toContain('from "@animal-store/client"');
      const pagination = operationPagination(spec, op);
      // An operation that pages shows the iterator over every page; the others, the one call.
      expect(source).toContain(
        pagination
          ? `of client.pages(${JSON.stringify(path)}`
          : `client.${method.toUpperCase()}(${JSON.stringify(path)}`,
      );
      if (pagination) expect(source).not.toContain(`${pagination.cursorParameter}:`);
    },
  );

  it("every TypeScript sample type-checks against the built client", () => {
    const files = Object.fromEntries(
      all.map(({ path, method, op }) => [
        op.operationId,
        samplesOf(path, method)[SAMPLE_LABELS.client] ?? "",
      ]),
    );
    expect(Object.keys(files).length).toBe(all.length);
    expect(typeErrors(files)).toEqual(
      Object.fromEntries(all.map(({ op }) => [op.operationId, []])),
    );
  }, 60_000);

  it("a sample that no longer compiles fails the check", () => {
    const withEnum = all.find(({ op }) => JSON.stringify(op.parameters).includes("Status"));
    if (!withEnum) throw new Error("no operation has a status parameter to plant a bad value in");
    const { path, method, op } = withEnum;
    const source = samplesOf(path, method)[SAMPLE_LABELS.client] ?? "";
    const status = enumOf("PetStatus")[0] ?? "";
    // As if the spec had renamed the path, or an example had left the enum the client knows.
    const planted = {
      renamedPath: source.replace(`(${JSON.stringify(path)}`, '("/animals"'),
      valueOutsideEnum: source.replace(`status: "${status}"`, 'status: "lost"'),
    };
    expect(planted.renamedPath).not.toBe(source);
    expect(planted.valueOutsideEnum).not.toBe(source);
    const errors = typeErrors(planted);
    expect(errors.renamedPath?.join("\n"), op.operationId).toMatch(/animals/);
    expect(errors.valueOutsideEnum?.join("\n"), op.operationId).toMatch(/lost/);
  }, 60_000);
});

describe("notes added to each operation", () => {
  it("state the rate-limit policy of every plan and the ban rule, from the spec", () => {
    const plans = resolve(spec.info["x-rate-limit-plans"]);
    const ban = resolve(spec.info["x-rate-limit-ban"]);
    const format = (n: unknown) => (typeof n === "number" ? n.toLocaleString("en-US") : String(n));
    for (const { path, method } of operations()) {
      const { description } = pageOperation(path, method, page);
      for (const [plan, raw] of Object.entries(plans)) {
        const limits = resolve(raw);
        expect(description).toMatch(
          new RegExp(
            `\\| ${plan} \\| ${format(limits.perMinute)} \\| ${format(limits.perDay)} \\|`,
            "i",
          ),
        );
      }
      expect(description).toContain(`${format(ban.rejectedRequestsBeforeBan)} more requests`);
      expect(description).toContain(`${format(ban.banSeconds)} seconds`);
    }
  });

  it("give deprecated operations, and only them, the deprecation → sunset → 410 timeline", () => {
    for (const { path, method, op } of operations()) {
      const { description } = pageOperation(path, method, page);
      if (!op.deprecated) {
        expect(description).not.toContain("Deprecation timeline");
        continue;
      }
      const since = description.indexOf(String(op.operation["x-deprecated-since"]));
      const sunset = description.indexOf(String(op.operation["x-sunset"]), since);
      expect(since).toBeGreaterThan(description.indexOf("Deprecation timeline"));
      expect(sunset).toBeGreaterThan(since);
      expect(description.slice(sunset)).toMatch(/`410`/);
      expect(description).toContain(String(op.operation["x-replacement"]));
    }
  });

  it("leave the served spec alone: the bundle has no samples or notes", () => {
    for (const { op } of operations()) {
      expect(op.operation["x-codeSamples"]).toBeUndefined();
      expect(op.description).not.toContain("#### Rate limit");
    }
  });
});
