/**
 * The contract's security as the toolchain reads it: the schemes an operation's requirements
 * name, the realm of its bearer challenge (`x-realm`), and the request headers a credential
 * travels in.
 *
 * @see https://spec.openapis.org/oas/v3.1.0#security-scheme-object
 * @see https://spec.openapis.org/oas/v3.1.0#security-requirement-object
 */
import { isJsonObject, type JsonObject, type OpenApiDocument } from "./document.js";
import type { SpecOperation } from "./spec-operations.js";

/** The document's security schemes by name (`components.securitySchemes`). */
export function securitySchemes(spec: OpenApiDocument): Record<string, JsonObject> {
  const schemes = spec.components?.securitySchemes;
  if (!isJsonObject(schemes)) return {};
  return Object.fromEntries(
    Object.entries(schemes).filter((entry): entry is [string, JsonObject] =>
      isJsonObject(entry[1]),
    ),
  );
}

/**
 * The realm of the challenges: the `x-realm` of the first scheme the operations use that gives
 * one, else the document's title. (Each scheme's own challenge carries its own `x-realm`; this is
 * the contract's, for a contract with one realm. Which schemes the server can check is the
 * engine's business: it refuses at start a scheme it cannot.)
 */
export function bearerRealm(
  spec: OpenApiDocument,
  operations: Pick<SpecOperation, "operationId" | "security">[],
): string {
  const schemes = securitySchemes(spec);
  for (const op of operations) {
    for (const name of op.security.flatMap((requirement) => Object.keys(requirement))) {
      const realm = schemes[name]?.["x-realm"];
      if (typeof realm === "string") return realm;
    }
  }
  return spec.info.title;
}

/**
 * The request headers calls of `operations` may carry: the credential's (`Authorization` for an
 * HTTP scheme, an apiKey scheme's own header), `Content-Type` where a body is taken, and every
 * header parameter. In first-seen order.
 */
export function requestHeaderNames(
  spec: OpenApiDocument,
  operations: Pick<SpecOperation, "security" | "requestBody" | "parameters">[],
): string[] {
  const schemes = securitySchemes(spec);
  const headers = new Set<string>();
  for (const op of operations) {
    for (const name of op.security.flatMap((requirement) => Object.keys(requirement))) {
      const scheme = schemes[name];
      if (scheme?.type === "http") headers.add("Authorization");
      if (scheme?.type === "apiKey" && scheme.in === "header") headers.add(String(scheme.name));
    }
    if (op.requestBody) headers.add("Content-Type");
    for (const parameter of op.parameters) {
      if (parameter.in === "header") headers.add(String(parameter.name));
    }
  }
  return [...headers];
}
