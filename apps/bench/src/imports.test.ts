/**
 * No import cycle among the bench's modules: each file's relative imports (types included) read
 * from its text, and every loop among them named.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

/** Every `.ts` file under `dir`, by path relative to `root`, with its text. */
function sources(root: string, dir = root): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(files, sources(root, path));
    else if (entry.name.endsWith(".ts")) files[relative(root, path)] = readFileSync(path, "utf8");
  }
  return files;
}

/** Every loop among `files`' relative imports, each as `a → b → a`. */
function importCycles(files: Record<string, string>): string[] {
  const links = new Map<string, string[]>();
  for (const [file, text] of Object.entries(files)) {
    const targets = [...text.matchAll(IMPORT)].map((m) =>
      normalize(join(dirname(file), (m[1] ?? m[2]) as string)).replace(/\.js$/, ".ts"),
    );
    links.set(file, targets);
  }
  const cycles = new Set<string>();
  const visit = (node: string, path: string[]) => {
    for (const next of links.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at !== -1) {
        const loop = path.slice(at);
        const start = loop.indexOf([...loop].sort()[0] as string);
        const turned = [...loop.slice(start), ...loop.slice(0, start)];
        cycles.add([...turned, turned[0]].join(" → "));
      } else visit(next, [...path, next]);
    }
  };
  for (const node of links.keys()) visit(node, [node]);
  return [...cycles].sort();
}

describe("the bench's imports", () => {
  it("form no cycle", () => {
    expect(importCycles(sources(dirname(fileURLToPath(import.meta.url))))).toEqual([]);
  });

  it("name a planted loop, type imports and subfolders included", () => {
    const planted = {
      "results.ts": 'import type { T } from "./targets.js";\nexport type R = 1;',
      "targets.ts": 'import { x } from "./variants/x.js";',
      "variants/x.ts": 'import type { R } from "../results.js";',
      "stats.ts": 'import { y } from "./results.js";',
    };
    expect(importCycles(planted)).toEqual(["results.ts → targets.ts → variants/x.ts → results.ts"]);
  });
});
