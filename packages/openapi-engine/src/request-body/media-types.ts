/**
 * An operation's request body of any declared media type: compiled once from its Request Body
 * Object into a selector (which declared media type a request's Content-Type picks, 415 listing
 * the declared ones when none) and a parser per family over bytes already read within the body
 * limit: JSON and `+json`, `application/x-www-form-urlencoded`, `multipart/form-data`,
 * `text/*` (and XML, as text), and everything else (`application/octet-stream`, images) as a
 * Buffer.
 *
 * How it plugs in: the compiled operation keeps `compileRequestBody(requestBody, limits)`
 * (compiled-operation.ts). Per request the body step (body-step.ts), before reading: no body
 * framing → `absent()` (undefined, or 400 when `required`); else
 * `select(req.headers["content-type"])` answers its 415 (and a JSON charset other than UTF-8)
 * before a byte is read, so the early 413 and the Content-Encoding decoding of read-body.ts are
 * the same for every type; then `selected.parse(bytes)` gives the value the validator checks
 * against the selected key's schema (validation/validate.ts).
 *
 * Choices made once here:
 * - The most specific declared key wins (OpenAPI: "more specific keys override less specific
 *   ones"): a key with parameters that the request carries, then the exact type, then a
 *   structured-syntax wildcard (`application/*+json`), then `type/*`, then `*\/*`.
 * - Parameters other than those a key names never stop a match; `charset` is read by the
 *   text and JSON parsers.
 * - A body without Content-Type is taken as `application/octet-stream` (RFC 9110 section 8.3).
 * - The parser is chosen by the request's own media type, so `*\/*` still parses JSON as JSON.
 * - A zero-length JSON body is no body (JSON text cannot be empty); zero bytes of another type
 *   is an empty value of that type (an empty string, form, or Buffer), which is what was sent.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#request-body-object
 * @see https://spec.openapis.org/oas/v3.1.1#media-types
 * @see https://spec.openapis.org/oas/v3.1.1#media-type-object
 * @see https://www.rfc-editor.org/rfc/rfc6839#section-3.1 (the +json suffix)
 */
import { parse as parseContentType } from "content-type";
import type { EngineError } from "../errors.js";
import { bodyErrors } from "./body-errors.js";
import { parseFormBody } from "./parse-form.js";
import { type MultipartLimits, parseMultipartBody } from "./parse-multipart.js";
import { isUtf8Charset, parseJsonBody, parseTextBody } from "./parse-text.js";

export type { MultipartLimits, UploadedFile } from "./parse-multipart.js";

/** How a body of a media type is parsed. */
export type BodyFamily = "json" | "form" | "multipart" | "text" | "binary";

/** A parsed body: its value (a JSON value, a form's fields, a string, a Buffer). */
export interface ParsedBody {
  value: unknown;
}

/** The declared media type a request's Content-Type selected. */
export interface SelectedMediaType {
  /** The declared key (`application/json`, `text/*`). */
  key: string;
  /** The request's own media type, lower case, without parameters. */
  mediaType: string;
  family: BodyFamily;
  /** The Media Type Object (its `schema`, `encoding`). */
  media: Readonly<Record<string, unknown>>;
  /** Parses bytes read within the body limit. Multipart answers a promise; the others do not. */
  parse(bytes: Buffer): ParsedBody | EngineError | Promise<ParsedBody | EngineError>;
}

/** One operation's request body, compiled. */
export interface CompiledRequestBody {
  required: boolean;
  /** The declared keys, in the contract's order (listed by the 415). */
  declared: readonly string[];
  /** For a request without a body: undefined, or 400 when the body is required. */
  absent(): { value: undefined } | EngineError;
  /** The declared media type `contentType` selects, or the 415 to answer before reading. */
  select(contentType: string | undefined): SelectedMediaType | EngineError;
}

/** The family that parses `mediaType` (lower case, no parameters). */
export function bodyFamily(mediaType: string): BodyFamily {
  if (mediaType === "application/json" || mediaType.endsWith("+json")) return "json";
  if (mediaType === "application/x-www-form-urlencoded") return "form";
  if (mediaType === "multipart/form-data") return "multipart";
  if (
    mediaType.startsWith("text/") ||
    mediaType === "application/xml" ||
    mediaType.endsWith("+xml")
  ) {
    return "text";
  }
  return "binary";
}

interface Declared {
  key: string;
  essence: string;
  parameters: Record<string, string>;
  media: Readonly<Record<string, unknown>>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

function essenceOf(type: string): string | undefined {
  const slash = type.indexOf("/");
  if (slash <= 0) return undefined;
  return TOKEN.test(type.slice(0, slash)) && TOKEN.test(type.slice(slash + 1)) ? type : undefined;
}

/** Compiles `requestBody` (undefined: the operation takes none); throws on a key that is no media range. */
export function compileRequestBody(
  requestBody: { content?: unknown; required?: unknown } | undefined,
  limits: MultipartLimits,
): CompiledRequestBody {
  const content =
    typeof requestBody?.content === "object" && requestBody.content !== null
      ? (requestBody.content as Record<string, unknown>)
      : {};
  const declared: Declared[] = Object.entries(content).map(([key, media]) => {
    const parsed = parseContentType(key);
    const essence = essenceOf(parsed.type);
    if (essence === undefined)
      throw new Error(`request body media type "${key}" is not a media range`);
    const parameters: Record<string, string> = {};
    for (const [name, value] of Object.entries(parsed.parameters)) {
      parameters[name] = name === "charset" ? value.toLowerCase() : value;
    }
    return { key, essence, parameters, media: (media ?? {}) as Record<string, unknown> };
  });
  const keys = declared.map((d) => d.key);
  const required = requestBody?.required === true;
  const withParameters = declared.filter((d) => Object.keys(d.parameters).length > 0);
  const exact = new Map<string, Declared>();
  const suffixed = new Map<string, Declared>();
  const ranges = new Map<string, Declared>();
  let any: Declared | undefined;
  // The first declared of equal specificity wins; later duplicates never shadow it.
  for (const d of declared) {
    if (Object.keys(d.parameters).length > 0) continue;
    if (d.essence === "*/*") any ??= d;
    else if (d.essence.endsWith("/*")) {
      if (!ranges.has(d.essence.slice(0, -1))) ranges.set(d.essence.slice(0, -1), d);
    } else if (/\/\*\+/.test(d.essence)) {
      const [type, suffix] = [d.essence.split("/")[0], d.essence.split("+").pop()];
      const at = `${type}/+${suffix}`;
      if (!suffixed.has(at)) suffixed.set(at, d);
    } else if (!exact.has(d.essence)) exact.set(d.essence, d);
  }
  const selections = new Map<Declared, Map<string, SelectedMediaType>>();

  const jsonOnly = declared.every((d) => bodyFamily(d.essence) === "json");
  const absent = (): { value: undefined } | EngineError =>
    required ? bodyErrors.required(jsonOnly) : { value: undefined };

  function selected(
    d: Declared,
    mediaType: string,
    header: string,
    charset: string | undefined,
  ): SelectedMediaType {
    const family = bodyFamily(mediaType);
    if (family === "multipart") {
      // The boundary is the request's own: nothing to reuse.
      return {
        key: d.key,
        mediaType,
        family,
        media: d.media,
        parse: (bytes) => parseMultipartBody(bytes, header, limits),
      };
    }
    let byType = selections.get(d);
    if (byType === undefined) {
      byType = new Map();
      selections.set(d, byType);
    }
    const cacheKey = charset === undefined ? mediaType : `${mediaType};${charset}`;
    const hit = byType.get(cacheKey);
    if (hit !== undefined) return hit;
    const made: SelectedMediaType = {
      key: d.key,
      mediaType,
      family,
      media: d.media,
      parse:
        family === "json"
          ? (bytes) => parseJsonBody(bytes, absent)
          : family === "text"
            ? (bytes) => parseTextBody(bytes, mediaType, charset)
            : family === "form"
              ? (bytes) => parseFormBody(bytes, mediaType)
              : (bytes) => ({ value: bytes }),
    };
    // Bounded: a wildcard key meets as many request types as clients invent.
    if (byType.size < 32) byType.set(cacheKey, made);
    return made;
  }

  function select(contentType: string | undefined): SelectedMediaType | EngineError {
    // The Content-Type nearly every JSON client sends is settled without a parse.
    if (contentType === "application/json" && plainJson !== undefined) return plainJson;
    const header = contentType ?? "application/octet-stream";
    const parsed = parseContentType(header);
    const mediaType = essenceOf(parsed.type);
    if (mediaType === undefined) return bodyErrors.unsupported(contentType, keys);
    const charset = parsed.parameters.charset?.toLowerCase();
    // RFC 8259 section 8.1: JSON between systems is UTF-8; a charset parameter may only say so.
    if (charset !== undefined && !isUtf8Charset(charset) && bodyFamily(mediaType) === "json") {
      return bodyErrors.charset(charset, "UTF-8");
    }
    for (const d of withParameters) {
      if (d.essence !== mediaType && !rangeCovers(d.essence, mediaType)) continue;
      const matches = Object.entries(d.parameters).every(([name, value]) => {
        const sent = parsed.parameters[name];
        return (name === "charset" ? sent?.toLowerCase() : sent) === value;
      });
      if (matches) return selected(d, mediaType, header, charset);
    }
    const slash = mediaType.indexOf("/");
    const plus = mediaType.lastIndexOf("+");
    const found =
      exact.get(mediaType) ??
      (plus > slash
        ? suffixed.get(`${mediaType.slice(0, slash)}/${mediaType.slice(plus)}`)
        : undefined) ??
      ranges.get(mediaType.slice(0, slash + 1)) ??
      any;
    if (found === undefined) return bodyErrors.unsupported(contentType, keys);
    return selected(found, mediaType, header, charset);
  }
  let plainJson: SelectedMediaType | undefined;
  const json = select("application/json");
  plainJson = "parse" in json ? json : undefined;

  return { required, declared: keys, absent, select };
}

function rangeCovers(range: string, mediaType: string): boolean {
  if (range === "*/*") return true;
  return range.endsWith("/*") && mediaType.startsWith(range.slice(0, -1));
}

/** Parses a body end to end (selection, then the family's parser): for tests and simple callers. */
export async function parseRequestBody(
  body: CompiledRequestBody,
  contentType: string | undefined,
  bytes: Buffer | undefined,
): Promise<{ value: unknown; selected?: SelectedMediaType } | EngineError> {
  if (bytes === undefined) return body.absent();
  const selected = body.select(contentType);
  if (!("parse" in selected)) return selected;
  const parsed = await selected.parse(bytes);
  return "value" in parsed ? { value: parsed.value, selected } : parsed;
}
