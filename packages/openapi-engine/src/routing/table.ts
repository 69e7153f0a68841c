/**
 * The routing table: the contract's operations grouped by path template, built once. HEAD is
 * answered wherever GET is (RFC 9110), by the GET operation; `Allow` lists a path's methods.
 *
 * @see https://spec.openapis.org/oas/v3.1.0#path-templating-matching
 */
import { HTTP_METHODS } from "@animal-store/openapi";
import type { ServedOperation } from "../contract/contract.js";

/** What the table reads of an operation. */
export type RoutedOperation = Pick<ServedOperation, "path" | "method" | "pattern" | "names">;

/** All operations of one path template. */
export interface PathEntry<Op extends RoutedOperation> {
  pattern: RegExp;
  byMethod: Map<string, Op>;
  /** The `Allow` value: the operations' methods, HEAD where there is a GET, and OPTIONS. */
  allow: string;
}

/** The methods a path answers: its operations', HEAD with a GET, OPTIONS always. */
export function allowedMethods(declared: string[]): string[] {
  const methods = new Set(declared);
  if (methods.has("GET")) methods.add("HEAD");
  methods.add("OPTIONS");
  return HTTP_METHODS.map((method) => method.toUpperCase()).filter((method) => methods.has(method));
}

/** How many of a path template's segments are templated (`/beds/{bedId}`: 1). */
function templatedSegments(path: string): number {
  return path.split("/").filter((segment) => segment.includes("{")).length;
}

/**
 * Builds the lookup table once from the contract's operations. Concrete paths come before
 * templated ones (`/beds/export` before `/beds/{bedId}`), as OpenAPI's path matching requires;
 * otherwise the contract's order is kept.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#paths-object
 */
export function buildRouteTable<Op extends RoutedOperation>(operations: Op[]): PathEntry<Op>[] {
  const byPath = new Map<string, Op[]>();
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const paths = [...byPath.keys()].sort((a, b) => templatedSegments(a) - templatedSegments(b));
  return paths.map((path) => {
    const ops = byPath.get(path) as Op[];
    const byMethod = new Map(ops.map((op) => [op.method as string, op]));
    const get = byMethod.get("GET");
    if (get && !byMethod.has("HEAD")) byMethod.set("HEAD", get);
    return {
      pattern: (ops[0] as Op).pattern,
      byMethod,
      allow: allowedMethods(ops.map((op) => op.method)).join(", "),
    };
  });
}
