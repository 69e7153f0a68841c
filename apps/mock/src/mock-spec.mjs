// @ts-check
// The spec Prism is given: the bundled contract, derived in memory at launch (never written).
// Two differences, both so that the mock answers exactly like the real server:
// - Prism serves a spec's paths at the root and ignores the servers' base path, while the real
//   server answers under it (`/v1`). Rather than put a proxy in front of Prism, the paths carry
//   the base path, so `/v1/pets` answers and `/pets` is a 404 on both. A contract whose servers
//   have several base paths (production under `/api/v2`, a sandbox under `/v2`) is served under
//   each of them, the first being the mock's URL.
// - Prism answers a deprecated operation with its own `deprecation: true` header, overriding the
//   RFC 9745 `Deprecation` header the spec declares (and failing its own response check). Where
//   an operation declares that header, the mock drops the flag so the declared header is served.

import { deref, HTTP_METHODS, serverBasePaths } from "@animal-store/openapi";

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

/** The path item under a further base path: its operationIds made unique (Prism keys on them). */
function underAnotherBase(/** @type {Json} */ item, /** @type {string} */ base) {
  return Object.fromEntries(
    Object.entries(item).map(([key, operation]) =>
      /** @type {readonly string[]} */ (HTTP_METHODS).includes(key) && operation?.operationId
        ? [key, { ...operation, operationId: `${operation.operationId} (${base})` }]
        : [key, operation],
    ),
  );
}

/**
 * The spec Prism serves: paths under each of the servers' base paths, declared headers kept.
 * `basePath` is the first server's (the mock's URL), `basePaths` all of them.
 */
export function mockSpecFrom(/** @type {Json} */ spec) {
  const basePaths = serverBasePaths(/** @type {any} */ (spec));
  const [basePath = ""] = basePaths;
  const paths = Object.fromEntries(
    basePaths.flatMap((base, index) =>
      Object.entries(spec.paths ?? {}).map(([path, item]) => {
        const kept = withDeclaredDeprecation(spec, item);
        return [`${base}${path}`, index === 0 ? kept : underAnotherBase(kept, base)];
      }),
    ),
  );
  return { spec: { ...spec, paths }, basePath, basePaths };
}
