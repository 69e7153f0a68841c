// The dev loop imports no application: what it runs comes from the application's config
// (dev-loop.config.mjs at the repository root, passed with --config). Its sources and scripts
// import only Node's modules, their own files and the packages its package.json declares, none
// of which is an application; shown failing on planted imports.
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const here = new URL("..", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(here, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The application packages of the repository: the loop is told about them, never imports them. */
const APPLICATION = /^@animal-store\/(server|mock|docs|web|api-types|client)(\/|$)/;

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']/g;

/** Each import of `files` that reaches an application, or a package the manifest does not declare. */
function violations(files: Record<string, string>, declared: string[]): string[] {
  const found: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    for (const match of text.matchAll(IMPORT)) {
      const specifier = (match[1] ?? match[2] ?? match[3]) as string;
      if (specifier.startsWith(".")) {
        if (/(^|\/)apps\/|\.\.\/\.\.\//.test(specifier)) found.push(`${file}: ${specifier}`);
        continue;
      }
      const parts = specifier.split("/");
      const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
      const builtin = name.startsWith("node:") || builtinModules.includes(name);
      if (APPLICATION.test(specifier) || (!builtin && !declared.includes(name))) {
        found.push(`${file}: ${specifier}`);
      }
    }
  }
  return found;
}

const read = (dir: string) =>
  Object.fromEntries(
    readdirSync(join(here, dir))
      .filter((name) => name.endsWith(".mjs"))
      .map((name) => [`${dir}/${name}`, readFileSync(join(here, dir, name), "utf8")]),
  );

describe("the dev loop's boundary", () => {
  const declared = [
    ...Object.keys(manifest.dependencies),
    ...Object.keys(manifest.devDependencies),
  ];

  it("declares no application among its dependencies", () => {
    expect(declared.filter((name) => APPLICATION.test(name))).toEqual([]);
  });

  it("imports no application from its sources or scripts", () => {
    const files = { ...read("src"), ...read("scripts") };
    expect(Object.keys(files).length).toBeGreaterThan(10);
    expect(violations(files, declared)).toEqual([]);
  });

  it("would catch an application's import (planted)", () => {
    expect(
      violations(
        {
          "src/a.mjs": 'import { configFrom } from "@animal-store/server";',
          "src/b.mjs": 'import { parseMockCommand } from "@animal-store/mock/src/options.mjs";',
          "src/c.mjs": 'const m = await import("../../../apps/docs/build.mjs");',
          "src/d.mjs": 'import { readFileSync } from "node:fs";\nimport { x } from "./config.mjs";',
          "src/e.mjs": 'import { bundle } from "@redocly/openapi-core";',
        },
        declared,
      ),
    ).toEqual([
      "src/a.mjs: @animal-store/server",
      "src/b.mjs: @animal-store/mock/src/options.mjs",
      "src/c.mjs: ../../../apps/docs/build.mjs",
    ]);
  });
});
