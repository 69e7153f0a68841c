/**
 * The shape the engine answers its own errors in, decided once for the contract: the contract's
 * own JSON error schema where it declares one (the body `EngineError.toBody()` gives: `code`,
 * `message`, `status`), else RFC 9457 `application/problem+json`. The compiled contract keeps it
 * (`contract.errorShape`); the error handler and the answers written on a socket before a request
 * could be read both render with it, so every engine error of a contract has one shape.
 *
 * Choices made once here:
 * - "The contract's JSON error schema" is the first `application/json` (or `+json` other than
 *   `application/problem+json`) schema of an error response (`4XX`, `5XX`, a 4xx or 5xx status,
 *   `default`) of its operations, in the contract's order, that the engine's body fits. One shape
 *   for the whole contract: the engine's errors (404, 405, the edge's) are not all an operation's.
 * - A contract whose error responses declare no JSON schema, or only problem+json, or no content,
 *   gets problem+json: RFC 9457 is the documented shape of an error the contract does not
 *   describe. A JSON error schema the engine's body does not fit (other field names) is answered
 *   in problem+json too, and `mismatch` says where, for a warning at start.
 * - problem+json's `type` is `about:blank` (so its `title` is the status's phrase, RFC 9457
 *   section 4.2.1); the engine's `code` is an extension member (section 3.2).
 *
 * @see https://spec.openapis.org/oas/v3.1.1#responses-object
 * @see https://spec.openapis.org/oas/v3.1.1#media-type-object
 * @see https://www.rfc-editor.org/rfc/rfc9457
 */
import { STATUS_CODES } from "node:http";
import { type DocumentedResponse, deref, type OpenApiDocument } from "@animal-store/openapi";
import { Ajv2020 } from "ajv/dist/2020.js";
import { ENGINE_ERROR_STATUS } from "../errors.js";

type JsonObject = Record<string, unknown>;

export const PROBLEM_JSON = "application/problem+json";

/** What an error says: the engine's errors and the connection answers both have these. */
export interface ErrorFacts {
  code: string;
  message: string;
  status: number;
}

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
export function problemDetails(error: ErrorFacts, context: ProblemContext = {}): ProblemDetails {
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

/** How the engine's errors are written for one contract. */
export interface ErrorShape {
  kind: "contract" | "problem";
  /** The `Content-Type` of every error answer. */
  contentType: string;
  render(error: ErrorFacts, context?: ProblemContext): string;
}

const problemShape: ErrorShape = {
  kind: "problem",
  contentType: PROBLEM_JSON,
  render: (error, context) => JSON.stringify(problemDetails(error, context)),
};

function contractShape(mediaType: string): ErrorShape {
  return {
    kind: "contract",
    contentType: mediaType === "application/json" ? "application/json; charset=utf-8" : mediaType,
    render: (error) =>
      JSON.stringify({ code: error.code, message: error.message, status: error.status }),
  };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

const ERROR_STATUS = /^([45]\d\d|[45]XX|default)$/i;

/** The contract's error shape, and the JSON error schema it could not use, if any. */
export interface CompiledErrorShape {
  shape: ErrorShape;
  /** A declared JSON error schema the engine's body does not fit (answered as problem+json). */
  mismatch: string | undefined;
}

/**
 * The error shape of a contract whose operations document `responses` (each operation's, in the
 * contract's order, `where` naming it).
 */
export function compileErrorShape(
  spec: OpenApiDocument,
  operations: ReadonlyArray<{ where: string; responses: readonly DocumentedResponse[] }>,
): CompiledErrorShape {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  let mismatch: string | undefined;
  for (const { where, responses } of operations) {
    for (const response of responses) {
      if (!ERROR_STATUS.test(response.status)) continue;
      const mediaType = jsonMediaType(response.content);
      if (mediaType === undefined) continue;
      const schema = deref<JsonObject | undefined>(spec, response.content[mediaType]?.schema);
      if (!isObject(schema)) return { shape: contractShape(mediaType), mismatch };
      // Does the engine's body fit the declared schema? (Its `$ref`s resolve in the document.)
      const validate = ajv.compile({ ...schema, components: spec.components });
      // A schema made for one status (`code: {const: not_found}`) fits the engine's body of some
      // code: any will do, as the shape is the body's fields, not its values.
      const fits = Object.entries(ENGINE_ERROR_STATUS).some(([code, status]) =>
        validate({ code, message: "m", status }),
      );
      if (fits) {
        return { shape: contractShape(mediaType), mismatch };
      }
      mismatch ??= `${where}: the ${response.status} ${mediaType} schema does not fit the engine's error body (code, message, status): the engine answers its errors as ${PROBLEM_JSON}`;
    }
  }
  return { shape: problemShape, mismatch };
}
