// The bundled contract, read the way the app's build reads it: tests compare what the page shows
// with the spec's examples, plans and headers, never with restated values.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

// biome-ignore lint/suspicious/noExplicitAny: the spec is walked dynamically and every access is asserted.
export type Json = any;

/** The bundled spec. */
export const spec: Json = JSON.parse(
  readFileSync(
    createRequire(import.meta.url).resolve("@animal-store/openapi/openapi.json"),
    "utf8",
  ),
);

/** Follows local `$ref`s. */
export function deref(node: Json): Json {
  let current = node;
  while (current && typeof current.$ref === "string") {
    const path = current.$ref.replace(/^#\//, "").split("/");
    current = path.reduce((acc: Json, key: string) => acc?.[key], spec);
  }
  return current;
}

/** A response of an operation, resolved. */
export function response(path: string, method: string, status: string): Json {
  return deref(spec.paths[path][method].responses[status]);
}

/** The first named example of a response body (what Prism answers). */
export function firstExample(path: string, method: string, status: string): Json {
  const examples = response(path, method, status).content["application/json"].examples;
  return deref(Object.values(examples)[0]).value;
}

/** A named example of a response body. */
export function namedExample(path: string, method: string, status: string, name: string): Json {
  return deref(response(path, method, status).content["application/json"].examples[name]).value;
}

/** The example value of a header a response declares. */
export function headerExample(path: string, method: string, status: string, name: string): string {
  return String(deref(response(path, method, status).headers[name]).example);
}

/** The Free plan's requests per minute (`info.x-rate-limit-plans`). */
export const freePerMinute: number = spec.info["x-rate-limit-plans"].free.perMinute;

/** The PetStatus values, in spec order. */
export const petStatuses: string[] = deref(spec.components.schemas.PetStatus).enum;
