// What the docs tests look at: the built page and the bundled spec it was rendered from.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadBundledSpec, specOperations } from "@animal-store/openapi";

// biome-ignore lint/suspicious/noExplicitAny: the spec is walked dynamically and every access is asserted.
export type Json = any;

/** The page `pnpm docs` writes. */
export const PAGE_PATH = fileURLToPath(new URL("../dist/index.html", import.meta.url));

/** The built page's HTML; throws a clear message when it has not been built. */
export function builtPage(): string {
  if (!existsSync(PAGE_PATH))
    throw new Error(`${PAGE_PATH} is missing: run \`pnpm run docs\` first`);
  return readFileSync(PAGE_PATH, "utf8");
}

/** The bundled spec the page was rendered from. */
export const spec: Json = loadBundledSpec().spec;

/** Every operation of the spec with its path, (lower-case) method and operation object. */
export function operations(): { path: string; method: string; op: Json }[] {
  return specOperations(spec).map(({ path, method, operation }) => ({
    path,
    method: method.toLowerCase(),
    op: operation,
  }));
}

/** The spec as the built page embeds it: the bundle plus the docs plugin's decorations. */
export function pageDefinition(): Json {
  const html = builtPage();
  const marker = "const __redoc_definition = ";
  const start = html.indexOf(marker);
  if (start === -1) throw new Error("the built page embeds no __redoc_definition");
  const end = html.indexOf("\n", start);
  return JSON.parse(
    html
      .slice(start + marker.length, end)
      .trim()
      .replace(/;$/, ""),
  );
}
