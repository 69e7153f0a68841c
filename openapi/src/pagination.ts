/**
 * Which operations answer in pages, read from their `x-pagination` extension: the query
 * parameter that carries the opaque cursor of a page's RFC 8288 `Link: <...>; rel="next"`, and
 * the one that sets the page size. A cursor is bound to every other query parameter (the
 * filter); the page size may change from page to page. The codes a bad cursor gets are those of
 * the operation's 400 examples `invalidCursor` (a cursor the server did not issue) and
 * `cursorForAnotherFilter`. The reader checks the extension against the operation, so a bad edit
 * fails where it is read.
 */
import { deref, isJsonObject, type JsonObject, type OpenApiDocument } from "./document.js";
import { documentedResponses } from "./responses.js";
import type { SpecOperation } from "./spec-operations.js";

/** How an operation pages. */
export interface OperationPagination {
  /** The optional query parameter a `next` link sets (`cursor`); a client never makes one up. */
  cursorParameter: string;
  /** The optional query parameter of the page size (`limit`), free to change between pages. */
  pageSizeParameter: string;
  /** The `Error` codes of a cursor the server did not issue, and of one made for another filter. */
  codes: { invalid: string; otherFilter: string };
}

/** The example names of the 400 answers to a bad cursor. */
const CODE_EXAMPLES = { invalid: "invalidCursor", otherFilter: "cursorForAnotherFilter" } as const;

/**
 * The pagination of `operation`, or undefined when it has no `x-pagination`. Throws, naming the
 * operation, when the extension names no optional query parameter of it, or when its success
 * response declares no `Link` header for the `next` link.
 */
export function operationPagination(
  spec: OpenApiDocument,
  operation: Pick<SpecOperation, "operationId" | "operation" | "parameters">,
): OperationPagination | undefined {
  const raw = operation.operation["x-pagination"];
  if (raw === undefined) return undefined;
  const where = `${operation.operationId}: x-pagination`;
  const optionalQuery = (field: string): string => {
    const name = isJsonObject(raw) ? raw[field] : undefined;
    const parameter = operation.parameters.find((p: JsonObject) => p.name === name);
    if (typeof name !== "string" || parameter?.in !== "query" || parameter.required === true) {
      throw new Error(`${where}.${field} must name an optional query parameter`);
    }
    return name;
  };
  const cursorParameter = optionalQuery("cursorParameter");
  const pageSizeParameter = optionalQuery("pageSizeParameter");
  const responses = documentedResponses(spec, operation);
  const success = responses.find((r) => /^2\d\d$/.test(r.status));
  if (!success?.headers.some((h) => h.name.toLowerCase() === "link")) {
    throw new Error(`${where}: its success response must declare the Link header`);
  }
  const examples = responses.find((r) => r.status === "400")?.content["application/json"]?.examples;
  const code = (name: string): string => {
    const example = isJsonObject(examples) ? deref<JsonObject>(spec, examples[name]) : undefined;
    const value = example?.value;
    if (!isJsonObject(value) || typeof value.code !== "string") {
      throw new Error(`${operation.operationId}: its 400 needs an example ${name} with a code`);
    }
    return value.code;
  };
  const codes = {
    invalid: code(CODE_EXAMPLES.invalid),
    otherFilter: code(CODE_EXAMPLES.otherFilter),
  };
  return { cursorParameter, pageSizeParameter, codes };
}
