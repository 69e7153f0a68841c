/**
 * The text families of request bodies: JSON (`application/json` and every `+json` type) and text
 * (`text/*`, XML), each from bytes already read within the body limit.
 *
 * JSON is UTF-8 only (RFC 8259 section 8.1): a charset parameter may only say so (media-types.ts
 * refuses another before the body is read), a byte order mark may lead, and text that would be
 * stored altered (bytes that are not UTF-8, a `\u` escape of half a surrogate pair) is refused
 * (text-check.ts), with the JSON errors of the catalogue (`malformed_json`). Text is
 * decoded by its `charset` parameter with a fatal TextDecoder: UTF-8 when none is given (RFC 6657
 * leaves the default to each subtype; UTF-8 is what clients send), and bytes the charset cannot
 * decode are refused rather than replaced by U+FFFD.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#media-type-object
 */
import { TextDecoder } from "node:util";
import { type EngineError, engineErrors } from "../errors.js";
import { bodyErrors } from "./body-errors.js";
import { decodeExactly } from "./text-check.js";

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The JSON value of `bytes` (after any byte order mark), `empty` when nothing is left (JSON text
 * cannot be empty: the caller decides whether that is a missing body), or the error to answer.
 */
export function parseJsonBody(
  bytes: Buffer,
  empty: () => { value: undefined } | EngineError,
): { value: unknown } | EngineError {
  const text = bytes.subarray(0, 3).equals(BOM) ? bytes.subarray(3) : bytes;
  if (text.length === 0) return empty();
  const decoded = decodeExactly(text);
  if (typeof decoded !== "string") return engineErrors.malformedText(decoded.problem);
  try {
    return { value: JSON.parse(decoded) };
  } catch {
    return engineErrors.malformedJson();
  }
}

/** Whether `charset` (lower case) names UTF-8, the only charset of JSON. */
export function isUtf8Charset(charset: string): boolean {
  return charset === "utf-8" || charset === "utf8";
}

/** The TextDecoder of each charset, made on first use (a decoder is reusable when not streaming). */
const decoders = new Map<string, TextDecoder | null>();

function decoderOf(charset: string): TextDecoder | null {
  let decoder = decoders.get(charset);
  if (decoder === undefined) {
    try {
      decoder = new TextDecoder(charset, { fatal: true, ignoreBOM: false });
    } catch {
      decoder = null;
    }
    // Bounded: only charsets a TextDecoder knows (a closed set) are kept under their own name.
    if (decoder !== null || decoders.size < 64) decoders.set(charset, decoder);
  }
  return decoder;
}

/** The text of `bytes` in `charset` (UTF-8 when undefined), or the error to answer with. */
export function parseTextBody(
  bytes: Buffer,
  mediaType: string,
  charset: string | undefined,
): { value: string } | EngineError {
  const decoder = decoderOf(charset ?? "utf-8");
  if (decoder === null) return bodyErrors.charset(charset ?? "", "a charset such as UTF-8");
  try {
    return { value: decoder.decode(bytes) };
  } catch {
    return bodyErrors.malformed(mediaType, `its bytes are not ${decoder.encoding}`);
  }
}
