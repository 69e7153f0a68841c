/**
 * The engine's boundary, checked on its sources: it imports nothing from an application (nor
 * anything its package.json does not declare), its folders never import each other both ways, and
 * its tests run over fixture contracts of their own, never an application's contract. Each rule is
 * shown failing on a planted import.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  boundaryViolations,
  contractImports,
  folderCycles,
  readSources,
  specifiersOf,
} from "./support/import-graph.js";

const src = fileURLToPath(new URL("../src/", import.meta.url));
const testDir = fileURLToPath(new URL("./", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const sources = readSources(src);
const runtime = Object.fromEntries(
  Object.entries(sources).filter(([file]) => !file.endsWith(".test.ts")),
);
const tests = Object.fromEntries(
  Object.entries(sources).filter(([file]) => file.endsWith(".test.ts")),
);

describe("the engine's boundary", () => {
  it("imports only Node's modules, its declared dependencies and its own files", () => {
    expect(Object.keys(runtime).length).toBeGreaterThan(30);
    expect(boundaryViolations(runtime, Object.keys(manifest.dependencies))).toEqual([]);
    const forTests = [
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.devDependencies),
    ];
    expect(boundaryViolations(tests, forTests, ["../test/"])).toEqual([]);
  });

  it("declares no dependency on an application", () => {
    const all = { ...manifest.dependencies, ...manifest.devDependencies };
    expect(
      Object.keys(all).filter((name) => /^@animal-store\/(server|api-types)$/.test(name)),
    ).toEqual([]);
  });

  it("would catch an application's module or an undeclared package (planted imports)", () => {
    const planted = {
      "routing/a.ts": 'import { createHandlers } from "../../../../apps/server/src/handlers.js";',
      "routing/b.ts": 'import type { operations } from "@animal-store/api-types";',
      "c.ts": 'export { startServer } from "@animal-store/server";',
      "d.ts": 'const lazy = await import("left-pad");',
      "e.ts": 'import { randomUUID } from "node:crypto";\nimport express from "express";',
    };
    expect(boundaryViolations(planted, Object.keys(manifest.dependencies))).toEqual([
      "routing/a.ts: ../../../../apps/server/src/handlers.js",
      "routing/b.ts: @animal-store/api-types",
      "c.ts: @animal-store/server",
      "d.ts: left-pad",
    ]);
  });
});

describe("the engine's folders", () => {
  it("reads every kind of import", () => {
    expect(
      specifiersOf(
        'import a from "a";\nimport type { B } from "./b.js";\nexport { c } from "../c.js";\nimport "d";\nawait import("e");',
      ),
    ).toEqual(["a", "./b.js", "../c.js", "d", "e"]);
  });

  it("never import each other both ways", () => {
    expect(folderCycles(runtime)).toEqual([]);
  });

  it("would catch a two-way link and a longer loop (planted imports)", () => {
    const planted = {
      "http/a.ts": 'import { b } from "../auth/b.js";',
      "auth/b.ts": 'import { a } from "../http/a.js";',
      "x/c.ts": 'import { d } from "../y/d.js";',
      "y/d.ts": 'import { e } from "../errors.js";',
      "errors.ts": 'import { c } from "./x/c.js";',
    };
    expect(folderCycles(planted)).toEqual([
      "auth/ → http/ → auth/",
      "errors.ts → x/ → y/ → errors.ts",
    ]);
  });
});

describe("the engine's tests", () => {
  const testFiles = {
    ...Object.fromEntries(Object.entries(tests).map(([file, text]) => [`src/${file}`, text])),
    ...Object.fromEntries(
      Object.entries(readSources(testDir)).map(([file, text]) => [`test/${file}`, text]),
    ),
  };
  // This file names what it forbids; it is checked on the planted files below instead.
  delete testFiles["test/boundaries.test.ts"];
  delete testFiles["test/support/import-graph.ts"];

  it("load no application's contract: they serve fixture contracts of their own", () => {
    expect(Object.keys(testFiles).length).toBeGreaterThan(40);
    expect(contractImports(testFiles)).toEqual([]);
  });

  it("would catch a test loading the Animal Store contract (planted imports)", () => {
    const planted = {
      "src/a.test.ts": 'import { loadBundledSpec } from "@animal-store/openapi";',
      "src/b.test.ts":
        'import * as openapi from "@animal-store/openapi";\nopenapi.bundledSpecPath;',
      "test/c.test.ts": 'import spec from "@animal-store/openapi/openapi.json";',
      "test/d.test.ts": 'import { basePath } from "@animal-store/test-support/spec-values";',
      "test/e.test.ts": 'const text = await import("../../../openapi/dist/openapi.json");',
      "test/f.test.ts": 'import { animalStore } from "../../../apps/server/src/animal-store.js";',
      "test/g.test.ts":
        'import { deref } from "@animal-store/openapi";\nimport x from "./support/fixture-contract.js";',
    };
    expect(contractImports(planted)).toEqual([
      "src/a.test.ts: loadBundledSpec",
      "src/b.test.ts: bundledSpecPath",
      "test/c.test.ts: @animal-store/openapi/openapi.json",
      "test/d.test.ts: @animal-store/test-support/spec-values",
      "test/e.test.ts: ../../../openapi/dist/openapi.json",
      "test/f.test.ts: ../../../apps/server/src/animal-store.js",
    ]);
  });
});
