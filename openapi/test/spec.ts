/** The bundled contract for the tests of this package, read through the package's own module. */
import { deref as derefIn, loadBundledSpec, specOperations } from "../src/index.js";

// biome-ignore lint/suspicious/noExplicitAny: the spec is walked dynamically and every access is asserted.
export type Json = any;

/** The bundled spec, `dist/openapi.json`, as plain JSON. */
export const spec: Json = loadBundledSpec().spec;

/** Follows a local `$ref` (`#/components/...`) until a concrete node is reached. */
export function deref(node: Json): Json {
  return derefIn(spec, node);
}

/** Every operation of the spec with its (lower-case) method and path. */
export function operations(): { method: string; path: string; op: Json }[] {
  return specOperations(spec).map(({ method, path, operation }) => ({
    method: method.toLowerCase(),
    path,
    op: operation,
  }));
}
