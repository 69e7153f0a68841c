// The bundled contract, read the way the mock reads it: tests compare answers with its examples.
import { deref as derefIn, loadBundledSpec } from "@animal-store/openapi";

// biome-ignore lint/suspicious/noExplicitAny: the spec is walked dynamically and every access is asserted.
export type Json = any;

/** The bundled spec, `openapi/dist/openapi.json`. */
export const spec: Json = loadBundledSpec().spec;

/** Follows a local `$ref` until a concrete node is reached. */
export function deref(node: Json): Json {
  return derefIn(spec, node);
}

/** The named examples of one response body of an operation. */
export function responseExamples(
  path: string,
  method: string,
  status: string,
): Record<string, Json> {
  const response = deref(spec.paths[path][method].responses[status]);
  const examples = response.content["application/json"].examples as Record<string, Json>;
  return Object.fromEntries(Object.entries(examples).map(([name, ex]) => [name, deref(ex).value]));
}

/** The first named example of a request body (what a frontend would send). */
export function requestExample(path: string, method: string): Json {
  const examples = spec.paths[path][method].requestBody.content["application/json"].examples;
  return deref(Object.values(examples)[0]).value;
}
