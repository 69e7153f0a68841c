/**
 * The shape the engine answers its own errors in, decided once per operation and status from the
 * contract: the contract's own JSON error schema where it declares one for that status (the body
 * `EngineError.toBody()` gives: `code`, `message`, `status`), else RFC 9457
 * `application/problem+json`. The engine's codes are checked against the contract only where the
 * contract's schema lists codes (an `enum` on `code`).
 *
 * How it plugs in: at start, `compileErrorShapes(spec, operation.responses)` runs for each
 * compiled operation (and once with the document's own responses for requests that match none);
 * it throws naming each code the contract's enum lacks. The error handler then asks
 * `shapes.forStatus(error.status).render(error, { instance })` and writes `contentType` and
 * `text`, keeping the error's headers as it does today.
 *
 * Choices made once here:
 * - The declared response of a status is the exact one, else its range (`4XX`), else `default`
 *   (OpenAPI's own precedence).
 * - It is "the contract's JSON error schema" when that response has `application/json` (or a
 *   `+json` type other than `application/problem+json`) content whose schema accepts the engine's
 *   body; a schema the engine's body does not fit (other field names) is answered in problem+json
 *   instead, and `mismatches` says where, for a warning at start.
 * - A status whose response is declared without content, as problem+json too: RFC 9457 is the
 *   documented shape of an error the contract does not describe.
 * - problem+json's `type` is `about:blank` (so its `title` is the status's phrase, RFC 9457
 *   section 4.2.1) unless the application gives a base URI for its codes; the engine's `code` and
 *   the validation errors are extension members (section 3.2).
 *
 * @see https://spec.openapis.org/oas/v3.1.1#responses-object
 * @see https://spec.openapis.org/oas/v3.1.1#media-type-object
 * @see https://www.rfc-editor.org/rfc/rfc9457
 */
import { STATUS_CODES } from "node:http";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { EngineError } from "../errors.js";

type JsonObject = Record<string, unknown>;

export const PROBLEM_JSON = "application/problem+json";

/** One validation error, as an extension member of a problem. */
export interface ProblemError {
  /** Where: `body/name`, `query/limit`, a JSON Pointer of the body. */
  path: string;
  message: string;
}

/** An RFC 9457 problem details object, with the engine's extension members. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  /** The engine's error code (its catalogue's). */
  code: string;
  /** The validation errors, when the error is one. */
  errors?: readonly ProblemError[];
}

/** What a rendering may add to the error itself. */
export interface ProblemContext {
  /** The request's target or id, as a URI reference (RFC 9457 section 3.1.5). */
  instance?: string | undefined;
  errors?: readonly ProblemError[] | undefined;
  /** A base URI the code is appended to for `type` (`https://example.com/problems/`). */
  typeBase?: string | undefined;
}

/** The RFC 9457 object of `error`. */
export function problemDetails(error: EngineError, context: ProblemContext = {}): ProblemDetails {
  const problem: ProblemDetails = {
    type: context.typeBase === undefined ? "about:blank" : `${context.typeBase}${error.code}`,
    title: STATUS_CODES[error.status] ?? "Error",
    status: error.status,
    detail: error.message,
    code: error.code,
  };
  if (context.instance !== undefined) problem.instance = context.instance;
  if (context.errors !== undefined && context.errors.length > 0) problem.errors = context.errors;
  return problem;
}

/** An answer's body, ready to write. */
export interface RenderedError {
  contentType: string;
  text: string;
}

/** The shape of one status's error answers. */
export type ErrorShape =
  | {
      kind: "contract";
      mediaType: string;
      render(error: EngineError, context?: ProblemContext): RenderedError;
    }
  | { kind: "problem"; render(error: EngineError, context?: ProblemContext): RenderedError };

const problemShape: ErrorShape = {
  kind: "problem",
  render: (error, context) => ({
    contentType: PROBLEM_JSON,
    text: JSON.stringify(problemDetails(error, context)),
  }),
};

function contractShape(mediaType: string): ErrorShape {
  const contentType =
    mediaType === "application/json" ? "application/json; charset=utf-8" : mediaType;
  return {
    kind: "contract",
    mediaType,
    render: (error) => ({ contentType, text: JSON.stringify(error.toBody()) }),
  };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolve(spec: JsonObject, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string" && hops < 32; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith("#/")) return current;
    let at: unknown = spec;
    for (const raw of ref.slice(2).split("/")) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      at = isObject(at) ? at[key] : undefined;
    }
    current = at;
  }
  return current;
}

/** The declared response of `status`: exact, else its range (`4XX`), else `default`. */
function declaredResponse(
  responses: JsonObject,
  status: number,
): { key: string; response: JsonObject } | undefined {
  for (const key of [
    String(status),
    `${String(status)[0]}XX`,
    `${String(status)[0]}xx`,
    "default",
  ]) {
    if (Object.hasOwn(responses, key)) return { key, response: responses[key] as JsonObject };
  }
  return undefined;
}

/** The JSON media type of a response's content that is not problem+json; undefined when none. */
function jsonMediaType(content: unknown): string | undefined {
  if (!isObject(content)) return undefined;
  return Object.keys(content).find((key) => {
    const essence = key.split(";")[0]?.trim().toLowerCase() ?? "";
    return (
      essence !== PROBLEM_JSON && (essence === "application/json" || essence.endsWith("+json"))
    );
  });
}

/** The compiled shapes of one operation's error answers. */
export interface CompiledErrorShapes {
  forStatus(status: number): ErrorShape;
  /** Declared JSON error schemas the engine's body does not fit (answered as problem+json). */
  mismatches: readonly string[];
}

/**
 * The error shapes of an operation whose declared responses are `responses`, for the engine's
 * codes and their statuses (`engineCodes`: code → status). Throws naming the codes a declared
 * `code` enum lacks.
 */
export function compileErrorShapes(
  spec: JsonObject,
  responses: unknown,
  engineCodes: Readonly<Record<string, number>>,
  where = "the contract",
): CompiledErrorShapes {
  const declared = isObject(responses) ? responses : {};
  const byStatus = new Map<number, ErrorShape>();
  const mismatches = new Set<string>();
  const missing = new Map<string, string[]>();
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  const statuses = [...new Set(Object.values(engineCodes))];
  for (const status of statuses) {
    const found = declaredResponse(declared, status);
    const response = found ? (resolve(spec, found.response) as JsonObject | undefined) : undefined;
    const mediaType = jsonMediaType(response?.content);
    if (found === undefined || response === undefined || mediaType === undefined) {
      byStatus.set(status, problemShape);
      continue;
    }
    const media = resolve(spec, (response.content as JsonObject)[mediaType]) as
      | JsonObject
      | undefined;
    const schema = resolve(spec, media?.schema);
    const codes = Object.entries(engineCodes)
      .filter(([, s]) => s === status)
      .map(([code]) => code);
    const properties = isObject(schema) ? resolve(spec, schema.properties) : undefined;
    const codeSchema = isObject(properties) ? resolve(spec, properties.code) : undefined;
    if (isObject(codeSchema) && Array.isArray(codeSchema.enum)) {
      const listed = new Set(codeSchema.enum.map(String));
      const lacking = codes.filter((code) => !listed.has(code));
      if (lacking.length > 0) missing.set(`${found.key} ${mediaType}`, lacking);
    }
    // Does the engine's body fit the declared schema? (Its `$ref`s resolve in the document.)
    let fits = true;
    if (isObject(schema)) {
      const validate = ajv.compile({ ...schema, components: spec.components });
      fits = codes.every((code) => validate({ code, message: "m", status }));
    }
    if (fits) byStatus.set(status, contractShape(mediaType));
    else {
      mismatches.add(
        `${where}: the ${found.key} ${mediaType} schema does not fit the engine's error body (code, message, status)`,
      );
      byStatus.set(status, problemShape);
    }
  }
  if (missing.size > 0) {
    throw new Error(
      [...missing]
        .map(
          ([response, codes]) =>
            `${where}: the ${response} error schema's code enum lacks ${codes.join(", ")}, which the server answers with`,
        )
        .join("; "),
    );
  }
  return {
    forStatus: (status) => byStatus.get(status) ?? problemShape,
    mismatches: [...mismatches],
  };
}
