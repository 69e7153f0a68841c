/**
 * `application/x-www-form-urlencoded` bodies to an object: each name once as a string, a name
 * sent more than once as an array of its values in order. The values stay strings; the schema's
 * coercion (as for query parameters) types them later.
 *
 * Split by hand on purpose, over `decodeURIComponent`: URLSearchParams and `querystring` keep a
 * broken escape (`%zz`) as text and decode bytes that are not UTF-8 to U+FFFD, so the data the
 * client sent would reach the handler altered; here such a body is refused instead. The object
 * has no prototype, so a field named `__proto__` or `constructor` is data like any other.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#encoding-object
 * @see https://url.spec.whatwg.org/#application/x-www-form-urlencoded
 */
import { isUtf8 } from "node:buffer";
import type { EngineError } from "../errors.js";
import { bodyErrors } from "./body-errors.js";

/** A parsed form: each field's value, or values when it came more than once. */
export type FormFields = Record<string, string | string[]>;

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.includes("+") ? text.replace(/\+/g, " ") : text);
  } catch {
    return undefined;
  }
}

/** The fields of a form body, or the error to answer with. */
export function parseFormBody(
  bytes: Buffer,
  mediaType: string,
): { value: FormFields } | EngineError {
  // Form bodies are ASCII on the wire (everything else percent-encoded); raw UTF-8 is tolerated.
  if (!isUtf8(bytes)) return bodyErrors.malformed(mediaType, "its bytes are not UTF-8");
  const fields: FormFields = Object.create(null);
  for (const pair of bytes.toString("utf8").split("&")) {
    if (pair === "") continue;
    const at = pair.indexOf("=");
    const name = decode(at === -1 ? pair : pair.slice(0, at));
    const value = decode(at === -1 ? "" : pair.slice(at + 1));
    if (name === undefined || value === undefined) {
      return bodyErrors.malformed(mediaType, "a name or value is not valid percent-encoded UTF-8");
    }
    const previous = fields[name];
    if (previous === undefined) fields[name] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else fields[name] = [previous, value];
  }
  return { value: fields };
}
