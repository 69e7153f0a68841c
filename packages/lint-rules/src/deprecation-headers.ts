/**
 * The bundle step's one copy of each deprecated operation's dates: every `Deprecation`, `Sunset`
 * and `Link` header a response of a deprecated operation declares gets that operation's own value
 * (the `const` and `example` of `Deprecation` and `Sunset`, the `example` of `Link`), computed by
 * the same function the server uses to send them (`deprecationHeaders`). The source declares the
 * headers once, generically (`#/components/headers/Sunset`); the dates live only in `x-sunset`,
 * `x-deprecated-since` and `x-replacement`. So the server (which checks its answers against the
 * bundle in development), the mock, the docs and the generated types all see the same value, and
 * changing `x-sunset` alone changes it everywhere.
 */
import {
  deprecationHeaders,
  deref,
  isJsonObject,
  type JsonObject,
  type OpenApiDocument,
  operationDeprecation,
  type SpecOperation,
  specOperations,
} from "@animal-store/openapi";

/** Headers whose schema is pinned to the value (`Link` may carry other links too, e.g. paging). */
const PINNED = new Set(["deprecation", "sunset"]);

/** Which operations refer to each response `$ref`. */
function responseRefUsers(operations: SpecOperation[]): Map<string, Set<string>> {
  const users = new Map<string, Set<string>>();
  for (const operation of operations) {
    const responses = operation.operation.responses;
    for (const raw of Object.values(isJsonObject(responses) ? responses : {})) {
      if (!isJsonObject(raw) || typeof raw.$ref !== "string") continue;
      users.set(raw.$ref, (users.get(raw.$ref) ?? new Set()).add(operation.operationId));
    }
  }
  return users;
}

/**
 * The response of `status` that only `operation` uses, to write its values into: an inline one as
 * it is, a component only it refers to in place, and a shared component as a copy of its own
 * (`<Name>-<operationId>`), so other operations keep theirs.
 */
function ownResponse(
  spec: OpenApiDocument,
  operation: SpecOperation,
  status: string,
  users: Map<string, Set<string>>,
): JsonObject {
  const responses = operation.operation.responses as JsonObject;
  const raw = responses[status] as JsonObject;
  if (typeof raw.$ref !== "string") return raw;
  if ((users.get(raw.$ref)?.size ?? 0) <= 1) return deref(spec, raw);
  const name = `${raw.$ref.split("/").pop()}-${operation.operationId}`;
  spec.components ??= {};
  spec.components.responses ??= {};
  const shared = spec.components.responses as JsonObject;
  shared[name] ??= structuredClone(deref(spec, raw));
  responses[status] = { $ref: `#/components/responses/${name}` };
  return shared[name] as JsonObject;
}

/**
 * The links of a declared `Link` example other than the successor's (a paged list's `next`):
 * the field carries them on top of the successor link, so the example shows them too.
 */
function otherLinks(example: unknown): string[] {
  if (typeof example !== "string") return [];
  return example
    .split(/,\s*(?=<)/)
    .map((link) => link.trim())
    .filter((link) => link !== "" && !/;\s*rel\s*=\s*"?successor-version"?/i.test(link));
}

/** A header declaration with the operation's value written in. */
function withValue(spec: OpenApiDocument, declared: unknown, name: string, value: string) {
  const { examples: _examples, ...header } = deref<JsonObject>(spec, declared);
  const schema = deref<JsonObject>(spec, header.schema ?? { type: "string" });
  const pinned = PINNED.has(name.toLowerCase());
  return {
    ...header,
    schema: pinned ? { ...schema, const: value } : schema,
    example: pinned ? value : [value, ...otherLinks(header.example)].join(", "),
  };
}

/** Writes every deprecated operation's header values into `spec`, in place. */
export function writeDeprecationHeaders(spec: OpenApiDocument): void {
  const operations = specOperations(spec);
  const users = responseRefUsers(operations);
  for (const operation of operations) {
    const deprecation = operationDeprecation(spec, operation, operations);
    if (!deprecation) continue;
    const values = new Map(
      Object.entries(deprecationHeaders(deprecation)).map(([name, value]) => [
        name.toLowerCase(),
        value,
      ]),
    );
    const responses = operation.operation.responses;
    for (const status of Object.keys(isJsonObject(responses) ? responses : {})) {
      const declared = deref<JsonObject>(spec, (responses as JsonObject)[status]).headers;
      const names = Object.keys(isJsonObject(declared) ? declared : {}).filter((name) =>
        values.has(name.toLowerCase()),
      );
      if (names.length === 0) continue;
      const own = ownResponse(spec, operation, status, users);
      const headers = { ...(own.headers as JsonObject) };
      for (const name of names) {
        headers[name] = withValue(spec, headers[name], name, values.get(name.toLowerCase()) ?? "");
      }
      own.headers = headers;
    }
  }
}

/** The Redocly decorator `spec-facts/deprecation-headers`: runs on the bundled document. */
export function deprecationHeadersDecorator() {
  return {
    Root: {
      leave(root: unknown) {
        writeDeprecationHeaders(root as OpenApiDocument);
      },
    },
  };
}
