/**
 * The engine's imports read from its sources as text, and the two rules they must keep: nothing
 * from outside the package but Node's modules and its declared dependencies (so no application
 * can leak in), and no two folders importing each other, directly or round a longer loop.
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, normalize, relative } from "node:path";

/** A source file: its path relative to `src/` (POSIX separators) and its text. */
export type Sources = Record<string, string>;

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']/g;

/** Every module specifier `text` imports or re-exports (static, side-effect and dynamic). */
export function specifiersOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3]) as string);
}

/** Every `.ts` file under `root`, tests included, as Sources. */
export function readSources(root: string, dir = root): Sources {
  const files: Sources = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(files, readSources(root, path));
    else if (entry.name.endsWith(".ts")) {
      files[relative(root, path).split("\\").join("/")] = readFileSync(path, "utf8");
    }
  }
  return files;
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

/**
 * Imports that leave the package: a relative path out of `src/` (but into one of `alsoInside`,
 * relative to `src/`: tests may reach `../test/`), or a package that is neither Node's nor one
 * of `dependencies`. Each as `file: specifier`.
 */
export function boundaryViolations(
  files: Sources,
  dependencies: Iterable<string>,
  alsoInside: string[] = [],
): string[] {
  const allowed = new Set(dependencies);
  const found: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    for (const specifier of specifiersOf(text)) {
      if (specifier.startsWith(".")) {
        const target = normalize(join(dirname(file), specifier));
        const posix = target.split("\\").join("/");
        const inside = !posix.startsWith("..") || alsoInside.some((dir) => posix.startsWith(dir));
        if (!inside) found.push(`${file}: ${specifier}`);
        continue;
      }
      const name = packageOf(specifier);
      const builtin = name.startsWith("node:") || builtinModules.includes(name);
      if (!builtin && !allowed.has(name)) found.push(`${file}: ${specifier}`);
    }
  }
  return found;
}

/** The node a file belongs to: its top-level folder, or the file itself at the root. */
function nodeOf(file: string): string {
  const slash = file.indexOf("/");
  return slash === -1 ? file : `${file.slice(0, slash)}/`;
}

/** Links between nodes (folder → folder or root file), from the relative imports of `files`. */
export function folderLinks(files: Sources): Map<string, Set<string>> {
  const links = new Map<string, Set<string>>();
  for (const [file, text] of Object.entries(files)) {
    const from = nodeOf(file);
    for (const specifier of specifiersOf(text)) {
      if (!specifier.startsWith(".")) continue;
      const to = nodeOf(
        normalize(join(dirname(file), specifier))
          .split("\\")
          .join("/"),
      );
      if (to === from) continue;
      const set = links.get(from) ?? new Set<string>();
      set.add(to.replace(/\.js$/, ".ts"));
      links.set(from, set);
    }
  }
  return links;
}

/** Every loop among the nodes of `files`, each as `a → b → a`; empty when the graph is acyclic. */
export function folderCycles(files: Sources): string[] {
  const links = folderLinks(files);
  const cycles = new Set<string>();
  const visit = (node: string, path: string[]) => {
    for (const next of links.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at !== -1) {
        const loop = path.slice(at);
        // One name per loop, whichever node it was entered from.
        const start = loop.indexOf([...loop].sort()[0] as string);
        const turned = [...loop.slice(start), ...loop.slice(0, start)];
        cycles.add([...turned, turned[0]].join(" → "));
      } else visit(next, [...path, next]);
    }
  };
  for (const node of links.keys()) visit(node, [node]);
  return [...cycles].sort();
}

/** What reads an application's contract: its bundle's paths, its loader, the helpers over it. */
const CONTRACT_SPECIFIERS = [
  /^@animal-store\/openapi\/openapi\.(json|yaml)$/,
  /(^|\/)openapi\/(dist|openapi\.yaml)/,
  /^@animal-store\/test-support\/(spec|spec-values|spec-edits)$/,
  /^@animal-store\/(server|api-types|client|mock|docs|web)(\/|$)/,
  /(^|\/)apps\//,
];
const CONTRACT_LOADERS = /\b(loadBundledSpec|bundledSpecPath)\b/;

/**
 * Files that load an application's contract (the Animal Store's, or anything of an application):
 * a specifier of its bundle, its app packages or the test helpers over it, or a use of the
 * bundled contract's loader. Each as `file: what`.
 */
export function contractImports(files: Sources): string[] {
  const found: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    for (const specifier of specifiersOf(text)) {
      if (CONTRACT_SPECIFIERS.some((pattern) => pattern.test(specifier))) {
        found.push(`${file}: ${specifier}`);
      }
    }
    const loader = CONTRACT_LOADERS.exec(text);
    if (loader) found.push(`${file}: ${loader[1]}`);
  }
  return found;
}
