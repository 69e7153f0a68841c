// @ts-check
// The stateful mock's key policy: every well-formed bearer key is a key of the chosen plan. The
// engine reads the Authorization header and checks the token's form before it asks this lookup,
// so a malformed key gets the server's own 401 there; and a missing one, its 401 `unauthorized`.
import { hashApiKey } from "@animal-store/openapi-engine";

/**
 * A key lookup that finds every presented key: `template` (a key record of the chosen plan) under
 * an id of the key's own, so each key is counted in windows of its own, as on the server.
 * @param {import("@animal-store/openapi-engine").ApiKeyRecord} template
 * @returns {import("@animal-store/openapi-engine").KeyLookup}
 */
export function anyWellFormedKey(template) {
  // A hash, never the key itself: ids end up in logs and rate-limit subjects.
  return (token) => ({ ...template, id: `mock_${hashApiKey(token).slice(0, 16)}` });
}
