/**
 * Enums the contract declares open (`x-open-enum: true` next to `enum`): the list names today's
 * values, and clients are told to handle a value they do not know (the `Error` code, handled by
 * its status). `redocly diff` rates any value added to a response enum as major, since a client
 * with a closed switch could break; for an open enum that is the documented way the list grows,
 * so the gate rates it minor. Only additions are re-rated, and only where the revision declares
 * the enum open: removing a value, or adding one to any other enum, stays as `redocly diff` says.
 *
 * The marker came with paging (1.0.0 → paging): the codes added with it answer only requests that
 * use the new `cursor` parameter, which no client of the released 1.0.0 can send (an unknown
 * query parameter was refused), so no such client can receive them.
 */
import { readFileSync } from "node:fs";

/** The rule of `redocly diff` that reports values added to an enum. */
export const ENUM_VALUES_ADDED = "enum-values-added";

/** Follows a local JSON pointer (`#/components/schemas/Error/properties/code/enum`). */
function resolvePointer(document: unknown, pointer: string): unknown {
  return pointer
    .replace(/^#\/?/, "")
    .split("/")
    .filter((part) => part !== "")
    .map((part) => decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>(
      (node, key) =>
        node !== null && typeof node === "object"
          ? (node as Record<string, unknown>)[key]
          : undefined,
      document,
    );
}

/** Whether `pointer` (to an `enum`) in the revision belongs to a schema marked `x-open-enum`. */
export function isOpenEnum(revision: unknown, pointer: string): boolean {
  if (!/\/enum$/.test(pointer)) return false;
  const schema = resolvePointer(revision, pointer.replace(/\/enum$/, ""));
  return (
    schema !== null &&
    typeof schema === "object" &&
    (schema as Record<string, unknown>)["x-open-enum"] === true
  );
}

/** Reads a bundled JSON contract once, for `isOpenEnum`. */
export function readContract(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}
