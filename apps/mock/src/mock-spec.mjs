// @ts-check
// The spec Prism is given: the bundled contract, derived in memory at launch (never written).
// Two differences, both so that the mock answers exactly like the real server:
// - Prism serves a spec's paths at the root and ignores the servers' base path, while the real
//   server answers under it (`/v1`). Rather than put a proxy in front of Prism, the paths carry
//   the base path, so `/v1/pets` answers and `/pets` is a 404 on both.
// - Prism answers a deprecated operation with its own `deprecation: true` header, overriding the
//   RFC 9745 `Deprecation` header the spec declares (and failing its own response check). Where
//   an operation declares that header, the mock drops the flag so the declared header is served.

import { basePathOf, deref, HTTP_METHODS } from "@animal-store/openapi";

/** @typedef {Record<string, any>} Json a parsed OpenAPI document or part of one */

/** True when one of the operation's responses declares a `Deprecation` header. */
function declaresDeprecationHeader(/** @type {Json} */ spec, /** @type {Json} */ operation) {
  return Object.values(operation.responses ?? {}).some((response) =>
    Object.keys(deref(/** @type {any} */ (spec), response).headers ?? {}).some(
      (name) => name.toLowerCase() === "deprecation",
    ),
  );
}

/** The path item with Prism's own deprecation header turned off where the spec declares one. */
function withDeclaredDeprecation(/** @type {Json} */ spec, /** @type {Json} */ item) {
  return Object.fromEntries(
    Object.entries(item).map(([key, operation]) =>
      /** @type {readonly string[]} */ (HTTP_METHODS).includes(key) &&
      operation?.deprecated &&
      declaresDeprecationHeader(spec, operation)
        ? [key, { ...operation, deprecated: false }]
        : [key, operation],
    ),
  );
}

/** The spec Prism serves: paths under the servers' base path, declared headers kept. */
export function mockSpecFrom(/** @type {Json} */ spec) {
  const basePath = basePathOf(/** @type {any} */ (spec));
  const paths = Object.fromEntries(
    Object.entries(spec.paths ?? {}).map(([path, item]) => [
      `${basePath}${path}`,
      withDeclaredDeprecation(spec, item),
    ]),
  );
  return { spec: { ...spec, paths }, basePath };
}
