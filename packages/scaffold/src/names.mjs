// The two naming rules of the scaffold, for any legal operationId (OpenAPI allows any string):
//
// - IDENTIFIER (the handler's exported const, the store method): the operationId's words, split
//   at every character that is not a letter or a digit and between a lower-case letter or digit
//   and an upper-case one, joined in camelCase: the first word's first letter lower-cased, every
//   other word's upper-cased, the rest kept (`get-stations` → `getStations`, `listItems` →
//   `listItems`, `put_account.avatar` → `putAccountAvatar`). A leading digit gets `_` before it;
//   a reserved word gets `Operation` after it (`delete` → `deleteOperation`).
// - FILE NAME (`<name>.ts` of the handler and of its test): the same words, lower-cased and joined
//   by `-` (kebab-case: `get-stations`, `list-items`, `put-account-avatar`).

const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with as implements interface let package private protected public static yield await async of type".split(
    " ",
  ),
);

/** The words of `operationId`. */
export function words(operationId) {
  return operationId
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

/** IDENTIFIER: the camelCase identifier of `operationId`. */
export function identifierOf(operationId) {
  const parts = words(operationId);
  if (parts.length === 0) return "_operation";
  const [first = "", ...rest] = parts;
  const name = [
    first.charAt(0).toLowerCase() + first.slice(1),
    ...rest.map((word) => word.charAt(0).toUpperCase() + word.slice(1)),
  ].join("");
  const safe = /^[0-9]/.test(name) ? `_${name}` : name;
  return RESERVED.has(safe) ? `${safe}Operation` : safe;
}

/** FILE NAME: the kebab-case file name (without extension) of `operationId`. */
export function fileNameOf(operationId) {
  const parts = words(operationId).map((word) => word.toLowerCase());
  return parts.length === 0 ? "operation" : parts.join("-");
}

/** `name` as an object key: bare when it is an identifier, quoted otherwise. */
export const propertyKey = (name) =>
  /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
