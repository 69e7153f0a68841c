/**
 * Reading the repository's TypeScript for the restated-values scans: the files under a folder,
 * and their text without comments (a comment may well name a plan, a date or a path).
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** The repository root. */
export const repo = new URL("../../../../", import.meta.url).pathname;

/** Every `.ts`/`.tsx`/`.mjs` file under `dir` (absolute) that `keep` accepts, relative to the repository. */
export function sources(dir: string, keep: (file: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return ["node_modules", "dist", "lib", "generated"].includes(entry.name)
        ? []
        : sources(path, keep);
    }
    const file = relative(repo, path);
    return /\.(ts|tsx|mjs)$/.test(entry.name) && keep(file) ? [file] : [];
  });
}

/** Source text without comments. */
export function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** `value` as a regular expression matching it literally. */
export function literally(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
