// What the docs tests look at: the built page, and the bundled spec it was rendered from (read
// through the spec fixture of test-support).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isJsonObject, type JsonObject, type SpecOperation } from "@animal-store/openapi";
import { operations as specOperations } from "@animal-store/test-support/spec";

export { spec } from "@animal-store/test-support/spec";

/** The page `pnpm docs` writes. */
export const PAGE_PATH = fileURLToPath(new URL("../dist/index.html", import.meta.url));

/** The built page's HTML; throws a clear message when it has not been built. */
export function builtPage(): string {
  if (!existsSync(PAGE_PATH))
    throw new Error(`${PAGE_PATH} is missing: run \`pnpm run docs\` first`);
  return readFileSync(PAGE_PATH, "utf8");
}

/** An operation as the docs show it: the spec's entry with its summary, description and tags. */
export interface DocOperation extends SpecOperation {
  summary: string;
  description: string;
  tags: string[];
}

/** Every operation of the spec with its path, (lower-case) method and operation. */
export function operations(): { path: string; method: string; op: DocOperation }[] {
  return specOperations.map((op) => ({
    path: op.path,
    method: op.method.toLowerCase(),
    op: {
      ...op,
      summary: String(op.operation.summary ?? ""),
      description: String(op.operation.description ?? ""),
      tags: Array.isArray(op.operation.tags) ? op.operation.tags.map(String) : [],
    },
  }));
}

/** The spec as the built page embeds it: the bundle plus the docs plugin's decorations. */
export function pageDefinition(): JsonObject & { paths: Record<string, JsonObject> } {
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

/** One operation as the page embeds it: its description and its code samples. */
export function pageOperation(
  path: string,
  method: string,
  page = pageDefinition(),
): { description: string; samples: { label: string; source: string }[] } {
  const item = page.paths[path];
  const operation = isJsonObject(item) ? item[method] : undefined;
  if (!isJsonObject(operation)) throw new Error(`the page has no ${method} ${path}`);
  const samples = operation["x-codeSamples"];
  return {
    description: String(operation.description ?? ""),
    samples: Array.isArray(samples) ? (samples as { label: string; source: string }[]) : [],
  };
}
