// @ts-check
// What the Prism mock's start-up note says about credentials, from the contract's own security
// schemes: Prism checks only that a credential of a scheme an operation accepts is present and
// well-formed, never its value.

/** @typedef {Record<string, any>} Json */

/** How a credential of `scheme` is sent, in a phrase. */
function sentAs(/** @type {string} */ name, /** @type {Json} */ scheme) {
  if (scheme.type === "http" && String(scheme.scheme).toLowerCase() === "basic") {
    return `${name}: any user and password (Authorization: Basic ...)`;
  }
  if (scheme.type === "http") {
    return `${name}: any ${String(scheme.scheme).toLowerCase()} token (Authorization: ${scheme.scheme} ...)`;
  }
  if (scheme.type === "apiKey") {
    const where = { header: "header", query: "query parameter", cookie: "cookie" }[
      String(scheme.in)
    ];
    return `${name}: any value in the ${scheme.name} ${where ?? String(scheme.in)}`;
  }
  if (scheme.type === "oauth2" || scheme.type === "openIdConnect") {
    return `${name}: any bearer token (Authorization: Bearer ...)`;
  }
  return `${name}: any ${String(scheme.type)} credential`;
}

/** The note: which credentials the mock accepts, scheme by scheme, or that none is needed. */
export function credentialsNote(/** @type {Json} */ spec) {
  const schemes = spec.components?.securitySchemes ?? {};
  /** @type {Set<string>} */
  const used = new Set();
  let open = false;
  for (const item of Object.values(spec.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) {
      if (typeof operation !== "object" || operation === null || !operation.responses) continue;
      const requirements = operation.security ?? spec.security ?? [];
      if (requirements.length === 0) open = true;
      for (const requirement of requirements) {
        const names = Object.keys(requirement);
        if (names.length === 0) open = true;
        for (const name of names) used.add(name);
      }
    }
  }
  if (used.size === 0) return "no operation needs a credential.";
  const accepted = [...used].map((name) => sentAs(name, schemes[name] ?? {}));
  return `the mock accepts ${accepted.join("; ")}${open ? " (some operations need none)" : ""}.`;
}
