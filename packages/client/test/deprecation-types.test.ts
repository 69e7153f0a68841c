// Deprecation at compile time, through the TypeScript language service (what an editor asks):
// a call of each deprecated operation of the contract gets a deprecation suggestion (6385/6387,
// which editors render struck through) whose signature's `@deprecated` text carries the
// operation's sunset and successor; a call of any other operation gets none. The signatures come
// from the contract (scripts/generate-operations.mjs): deprecating another operation in a copy of
// the spec and regenerating flags its calls too, with nothing else changed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  firstExample,
  loadBundledSpec,
  type OpenApiDocument,
  operationDeprecation,
  type SpecOperation,
  specOperations,
} from "@animal-store/openapi";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM script without declarations
import { renderOperations } from "../scripts/generate-operations.mjs";

const clientDir = fileURLToPath(new URL("..", import.meta.url));
const sampleFile = join(clientDir, "test", "__deprecation-sample.ts");
const generatedFile = join(clientDir, "src", "generated", "operations.ts");
const DEPRECATED_CODES = new Set([6385, 6387]);
const { spec } = loadBundledSpec();
const operations = specOperations(spec);
const scratch = mkdtempSync(join(tmpdir(), "client-deprecation-"));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A call's init built from the operation's own examples (required parameters and body). */
function exampleInit(op: SpecOperation): string {
  const params: Record<string, Record<string, unknown>> = {};
  for (const parameter of op.parameters) {
    if (!parameter.required) continue;
    const place = String(parameter.in);
    params[place] = { ...params[place], [String(parameter.name)]: firstExample(spec, parameter) };
  }
  const media = (op.requestBody?.content as Record<string, never> | undefined)?.[
    "application/json"
  ];
  const init: Record<string, unknown> = {};
  if (Object.keys(params).length > 0) init.params = params;
  if (media) init.body = firstExample(spec, media);
  return JSON.stringify(init);
}

/** The sample: one call per operation, through the method property and through `request`. */
function sample(ops: SpecOperation[]): { text: string; calls: Map<string, number[]> } {
  const lines = [
    'import { createAnimalStoreClient } from "../src/index.js";',
    'const client = createAnimalStoreClient({ baseUrl: "http://127.0.0.1/v1", apiKey: "k" });',
    "export async function calls() {",
  ];
  const calls = new Map<string, number[]>();
  for (const op of ops) {
    const init = exampleInit(op);
    const at: number[] = [];
    for (const call of [
      `  await client.${op.method}(${JSON.stringify(op.path)}, ${init});`,
      `  await client.request(${JSON.stringify(op.method.toLowerCase())}, ${JSON.stringify(op.path)}, ${init});`,
    ]) {
      const offset = lines.join("\n").length + 1;
      at.push(offset + call.indexOf("client.") + "client.".length);
      lines.push(call);
    }
    calls.set(op.operationId, at);
  }
  lines.push("}", "");
  return { text: lines.join("\n"), calls };
}

/** A language service over the client's tsconfig, with the sample and (optionally) another operation table. */
function languageService(sampleText: string, generated?: string): ts.LanguageService {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(clientDir, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error("cannot read packages/client/tsconfig.json");
  const override = new Map([[sampleFile, sampleText]]);
  if (generated !== undefined) override.set(generatedFile, generated);
  const read = (file: string) => override.get(file) ?? ts.sys.readFile(file);
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => config.options,
    getScriptFileNames: () => [sampleFile],
    getScriptVersion: () => "1",
    getScriptSnapshot: (file) => {
      const text = read(file);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => clientDir,
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: (file) => override.has(file) || ts.sys.fileExists(file),
    readFile: read,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

/** Per operation: whether its calls are reported deprecated, and the `@deprecated` texts. */
function report(service: ts.LanguageService, calls: Map<string, number[]>) {
  const errors = service.getSemanticDiagnostics(sampleFile).map((d) => {
    const where = d.file?.getLineAndCharacterOfPosition(d.start ?? 0);
    return `${(where?.line ?? 0) + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
  const flagged = service
    .getSuggestionDiagnostics(sampleFile)
    .filter((d) => DEPRECATED_CODES.has(d.code))
    .map((d) => d.start ?? -1);
  const result = new Map<string, { flagged: boolean[]; texts: string[] }>();
  for (const [operationId, positions] of calls) {
    result.set(operationId, {
      flagged: positions.map((p) => flagged.includes(p)),
      texts: positions.map((p) =>
        (service.getQuickInfoAtPosition(sampleFile, p)?.tags ?? [])
          .filter((tag) => tag.name === "deprecated")
          .map((tag) => ts.displayPartsToString(tag.text))
          .join(" "),
      ),
    });
  }
  return { errors, result };
}

const day = (date: Date | undefined) => date?.toISOString().slice(0, 10);

describe("deprecation in the editor (TypeScript language service)", () => {
  it("flags every call of a deprecated operation, with its sunset and successor, and no other", () => {
    const { text, calls } = sample(operations);
    const { errors, result } = report(languageService(text), calls);
    expect(errors).toEqual([]);
    expect(operations.some((op) => op.deprecated)).toBe(true);
    for (const op of operations) {
      const { flagged, texts } = result.get(op.operationId) ?? { flagged: [], texts: [] };
      if (!op.deprecated) {
        expect(flagged, op.operationId).toEqual([false, false]);
        expect(texts, op.operationId).toEqual(["", ""]);
        continue;
      }
      expect(flagged, op.operationId).toEqual([true, true]);
      const deprecation = operationDeprecation(spec, op, operations);
      for (const text of texts) {
        expect(text).toContain(op.operationId);
        if (deprecation?.sunset) expect(text).toContain(`Sunset ${day(deprecation.sunset)}`);
        if (deprecation?.successor) expect(text).toContain(deprecation.successor.text);
      }
    }
  }, 120_000);

  it("flags a newly deprecated operation by regeneration alone", async () => {
    const fresh = operations.find((op) => !op.deprecated);
    if (!fresh) throw new Error("the spec has no operation that is not deprecated");
    const old = operations.find((op) => op.deprecated);
    const since = new Date(Date.UTC(new Date().getUTCFullYear(), 0, 1));
    const sunset = new Date(since.getTime());
    sunset.setUTCFullYear(since.getUTCFullYear() + 5);
    const edited = structuredClone(spec) as OpenApiDocument;
    const target = (edited.paths as Record<string, Record<string, Record<string, unknown>>>)[
      fresh.path
    ]?.[fresh.method.toLowerCase()];
    if (!target) throw new Error(`${fresh.operationId} is not in the copy of the spec`);
    Object.assign(target, {
      deprecated: true,
      "x-deprecated-since": day(since),
      "x-sunset": day(sunset),
      ...(old ? { "x-replacement": `${old.method} ${old.path}` } : {}),
    });
    const specPath = join(scratch, "openapi.json");
    writeFileSync(specPath, JSON.stringify(edited));
    const regenerated: string = await renderOperations(specPath);
    const { text, calls } = sample([fresh]);
    const { errors, result } = report(languageService(text, regenerated), calls);
    expect(errors).toEqual([]);
    expect(result.get(fresh.operationId)?.flagged).toEqual([true, true]);
    for (const hint of result.get(fresh.operationId)?.texts ?? []) {
      expect(hint).toContain(`Sunset ${day(sunset)}`);
      if (old) expect(hint).toContain(`${old.method} ${old.path}`);
    }
    // And the committed table, untouched, does not flag it.
    const committed = report(languageService(text, readFileSync(generatedFile, "utf8")), calls);
    expect(committed.result.get(fresh.operationId)?.flagged).toEqual([false, false]);
  }, 120_000);
});
