import type { ApiError as ApiErrorBody, ApiErrorCode } from "@animal-store/api-types";
import { sentCallOf } from "./response-meta.js";
import { REQUEST_ID_HEADER } from "./spec-headers.js";

/**
 * Whether a parsed body is an error body as the engine writes them: the contract's own error
 * shape (`code`, `message`, `status`), or, for a contract that declares none, RFC 9457 problem
 * details (`title`, `status`; the engine adds `code`).
 */
export function isApiErrorBody(body: unknown): body is ApiErrorBody {
  if (typeof body !== "object" || body === null) return false;
  const { code, message, status, title } = body as Record<string, unknown>;
  if (typeof status !== "number") return false;
  return (typeof code === "string" && typeof message === "string") || typeof title === "string";
}

/** A member of an error body, when it is a string. */
function text(body: object | undefined, member: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[member];
  return typeof value === "string" ? value : undefined;
}

/** An error response thrown as an exception, for callers who prefer `try`/`catch` to `{ error }`. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  /** The HTTP status of the response. */
  readonly status: number;
  /** The error's `code`, or undefined when the body was not an error body (e.g. a proxy page). */
  readonly code: ApiErrorCode | undefined;
  /** The spec's `Error` body, when the response had one. */
  readonly body: ApiErrorBody | undefined;
  /** The response, for its headers (`Retry-After`, `X-RateLimit-*`, `WWW-Authenticate`). */
  readonly response: Response;
  /** The server's `X-Request-Id` (its logs name the request by it), or the one the client sent. */
  readonly requestId: string | undefined;
  /** The spec's operationId ("getPet"), or "METHOD /path"; undefined if the client did not send it. */
  readonly operationId: string | undefined;

  constructor(response: Response, body: unknown) {
    const apiBody = isApiErrorBody(body) ? body : undefined;
    const code = text(apiBody, "code");
    const said = text(apiBody, "message") ?? text(apiBody, "detail");
    super(
      apiBody
        ? `${response.status} ${code ?? text(apiBody, "title")}${said === undefined ? "" : `: ${said}`}`
        : `${response.status} ${response.statusText || "error"} (the body is not an API error)`,
    );
    this.status = response.status;
    this.code = code as ApiErrorCode | undefined;
    this.body = apiBody;
    this.response = response;
    const sent = sentCallOf(response);
    this.requestId = sent ? sent.requestId : (response.headers.get(REQUEST_ID_HEADER) ?? undefined);
    this.operationId = sent?.operationId;
  }
}

/** The result of an openapi-fetch call: data on success, the typed error body otherwise. */
type CallResult = { data?: unknown; error?: unknown; response: Response };

/** The data type of a result's success branch. */
export type SuccessData<R> = R extends { data: infer D; error?: never } ? D : never;

/** Returns a call's data, or throws its error response as an `ApiError`. */
export function unwrap<R extends CallResult>(result: R): SuccessData<R> {
  if (!result.response.ok) throw new ApiError(result.response, result.error);
  return result.data as SuccessData<R>;
}
