/** Loads the bundled contract once for the tests of this package. */
import { readFileSync } from "node:fs";

// biome-ignore lint/suspicious/noExplicitAny: the spec is walked dynamically and every access is asserted.
export type Json = any;

/** The bundled spec, `dist/openapi.json`, as plain JSON. */
export const spec: Json = JSON.parse(
  readFileSync(new URL("../dist/openapi.json", import.meta.url), "utf8"),
);

/** Follows a local `$ref` (`#/components/...`) until a concrete node is reached. */
export function deref(node: Json): Json {
  let current = node;
  while (current && typeof current.$ref === "string") {
    const path = current.$ref.replace(/^#\//, "").split("/");
    current = path.reduce((acc: Json, key: string) => acc?.[key], spec);
  }
  return current;
}

/** Every operation of the spec with its method and path. */
export function operations(): { method: string; path: string; op: Json }[] {
  return Object.entries(spec.paths).flatMap(([path, item]: [string, Json]) =>
    ["get", "post", "put", "patch", "delete"]
      .filter((method) => item[method])
      .map((method) => ({ method, path, op: item[method] })),
  );
}
