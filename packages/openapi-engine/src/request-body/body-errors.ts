/**
 * The errors the media-type parsers answer with, as factories over the engine's catalogue
 * (errors.ts) so that every code is one the contract already documents. JSON keeps the
 * catalogue's JSON errors (`malformed_json`); a body of another type that is not what its
 * Content-Type says (form, multipart, text) is answered 400 `validation_failed` naming the media
 * type (a dedicated `malformed_body` code would be clearer, and belongs in the catalogue).
 *
 * @see https://spec.openapis.org/oas/v3.1.1#request-body-object
 */
import { EngineError, engineErrors } from "../errors.js";

export const bodyErrors = {
  /** 400: a required body is absent (the catalogue's JSON wording when only JSON is declared). */
  required: (jsonOnly: boolean): EngineError =>
    jsonOnly ? engineErrors.bodyRequired() : engineErrors.validationFailed("body is required."),
  /**
   * 415: the Content-Type is none of the declared media types. When `application/json` is the
   * only one, the catalogue's own message says so.
   */
  unsupported: (sent: string | undefined, declared: readonly string[]): EngineError =>
    declared.length === 1 && declared[0] === "application/json"
      ? engineErrors.unsupportedMediaType()
      : engineErrors.unsupportedMediaType(
          declared.length === 0
            ? "This operation takes no request body."
            : `${sent === undefined ? "A request body needs a Content-Type" : `Content-Type ${shown(sent)} is not accepted`}: send one of ${declared.join(", ")}.`,
        ),
  /** 415: a charset the parser cannot decode (or, for JSON, anything but UTF-8). */
  charset: (charset: string, allowed: string): EngineError =>
    engineErrors.unsupportedMediaType(`Unsupported charset "${shown(charset)}": send ${allowed}.`),
  /** 400: the bytes are not what the media type says. */
  malformed: (mediaType: string, why: string): EngineError =>
    engineErrors.validationFailed(`body is not valid ${shown(mediaType)}: ${why}.`),
  /** 413: a multipart body over one of its bounds (parts, part size). */
  tooLarge: (what: string): EngineError =>
    new EngineError("payload_too_large", `The request body exceeds ${what}.`),
};

function shown(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}...` : text;
}
