/**
 * The engine's error catalogue: every error it answers with, as a factory that binds the code,
 * the status and the message once (after Fastify's `lib/errors.js`). Steps throw or pass these;
 * a library's own errors (the validator's, the body parser's) are converted where they arise, so
 * the error handler sees only `EngineError`, `StoreUnavailableError` (a backing store's outage)
 * and anything else, which is a bug and answers 500. Where the contract's error schema lists codes
 * (an `enum` on `code`), it must allow every code below that the contract can make the engine
 * answer with; where it declares `info.x-connection-errors`, that must list every connection
 * code: both are checked at start (contract/error-codes.ts).
 */

/** Each code the engine answers requests with, and its status. */
const STATUS_OF = {
  validation_failed: 400,
  malformed_json: 400,
  malformed_encoding: 400,
  unauthorized: 401,
  invalid_api_key: 401,
  invalid_credentials: 401,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unsupported_encoding: 415,
  rate_limited: 429,
  api_key_banned: 429,
  internal_error: 500,
  not_implemented: 500,
  service_unavailable: 503,
} as const;

/** A code the engine answers requests with. */
export type EngineErrorCode = keyof typeof STATUS_OF;

/** Every code the engine answers requests with. */
export const ENGINE_ERROR_CODES = Object.keys(STATUS_OF) as EngineErrorCode[];

/** The status of each code the engine answers requests with. */
export const ENGINE_ERROR_STATUS: Readonly<Record<EngineErrorCode, number>> = STATUS_OF;

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The one error type of the engine: a code, its status, a message, and headers to answer with. */
export class EngineError extends Error {
  readonly status: number;

  constructor(
    readonly code: EngineErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = NO_HEADERS,
  ) {
    super(message);
    this.name = "EngineError";
    this.status = STATUS_OF[code];
  }

  /** The contract's `Error` body. */
  toBody(): { code: string; message: string; status: number } {
    return { code: this.code, message: this.message, status: this.status };
  }
}

/** A failure of a backing store (database, Redis): answered 503, never 500. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreUnavailableError";
  }
}

/** Paths are shown in messages, but never at any length. */
function shown(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}

/** The catalogue: one factory per answer, each with its code, status and message bound. */
export const engineErrors = {
  /** 400: a parameter or the body breaks the operation's schema (`detail` says where and how). */
  validationFailed: (detail: string) => new EngineError("validation_failed", detail),
  /** 400: an operation that takes a body got none. */
  bodyRequired: () => new EngineError("validation_failed", "body is required (a JSON object)."),
  /** 400: a path parameter that is not valid percent-encoding. */
  badPathEscape: (name: string) =>
    new EngineError("validation_failed", `path/${name} is not a valid percent-encoded value`),
  /** 400: a number parameter that is not finite (`1e400`, `Infinity`). */
  nonFiniteNumber: (where: "path" | "query", name: string) =>
    new EngineError("validation_failed", `${where}/${name} must be a finite number`),
  /** 400: an integer parameter not in decimal digits (`0x10`, `1e2`, `+1`, ` 5`, `01`). */
  looseInteger: (where: "params" | "query", name: string) =>
    new EngineError(
      "validation_failed",
      `${where}/${name} must be an integer in decimal digits, without a plus sign, spaces, exponent or leading zero`,
    ),
  /** 400: the body is not JSON. */
  malformedJson: () => new EngineError("malformed_json", "The request body is not valid JSON."),
  /** 400: the body is not text as sent: bytes that are not UTF-8, or a lone surrogate escape. */
  malformedText: (why: string) =>
    new EngineError("malformed_json", `The request body is not valid JSON text: ${why}.`),
  /** 400: the body's Content-Encoding cannot be decoded (corrupt compressed data). */
  malformedEncoding: (encoding: string) =>
    new EngineError(
      "malformed_encoding",
      `The request body cannot be decoded as its Content-Encoding (${shown(encoding)}) says.`,
    ),
  /** 401: no bearer credential where the operation needs one. */
  missingCredential: (challenge: string) =>
    new EngineError("unauthorized", "Missing credentials: send Authorization: Bearer <API_KEY>.", {
      "WWW-Authenticate": challenge,
    }),
  /** 401: a key that is unknown or revoked. */
  invalidApiKey: (challenge: string) =>
    new EngineError("invalid_api_key", "The API key is invalid or revoked.", {
      "WWW-Authenticate": `${challenge}, error="invalid_token"`,
    }),
  /** 401: more than one Authorization header (which would the client have meant?). */
  ambiguousCredential: (challenge: string) =>
    new EngineError("invalid_api_key", "Send exactly one Authorization header.", {
      "WWW-Authenticate": `${challenge}, error="invalid_request"`,
    }),
  /** 404: no operation (or ops route) has this path. */
  noSuchPath: (path: string) => new EngineError("not_found", `No such path: ${shown(path)}`),
  /** 404: the docs page has not been built; `hint` says how to build it. */
  docsNotBuilt: (hint: string) =>
    new EngineError("not_found", `The docs page has not been built (${hint}).`),
  /** 405: the path exists, without this method; `allow` lists its methods. */
  methodNotAllowed: (method: string, allow: string) =>
    new EngineError("method_not_allowed", `${method} is not allowed here.`, { Allow: allow }),
  /** 406: none of the types the operation answers in is acceptable to the client. */
  notAcceptable: (available: readonly string[]) =>
    new EngineError(
      "not_acceptable",
      `None of the types this operation answers in is acceptable: ${available.join(", ")}.`,
    ),
  /** 410: a deprecated operation past its sunset (`message` names its successor). */
  gone: (message: string) => new EngineError("gone", message),
  /** 413: the body is over the contract's limit. */
  payloadTooLarge: (limitBytes: number) =>
    new EngineError("payload_too_large", `The request body exceeds ${limitBytes} bytes.`),
  /** 415: the body is not `application/json` (or its encoding cannot be read). */
  unsupportedMediaType: (detail = "Content-Type must be application/json.") =>
    new EngineError("unsupported_media_type", detail),
  /** 415: a Content-Encoding the engine does not decode. */
  unsupportedEncoding: (encoding: string) =>
    new EngineError(
      "unsupported_encoding",
      `Content-Encoding ${shown(encoding)} is not supported: send gzip, deflate, br or identity.`,
    ),
  /** 429: a rate limit is exhausted. */
  rateLimited: (retryAfter: number) =>
    new EngineError("rate_limited", `Rate limit exceeded; retry after ${retryAfter} seconds.`, {
      "Retry-After": String(retryAfter),
    }),
  /** 429: the key is banned for calling while limited. */
  apiKeyBanned: (retryAfter: number) =>
    new EngineError(
      "api_key_banned",
      `The API key is banned for calling while limited; retry after ${retryAfter} seconds.`,
      { "Retry-After": String(retryAfter) },
    ),
  /** 500: anything unexpected; the request id lets an operator find the logged cause. */
  internal: (requestId: string) =>
    new EngineError("internal_error", `Internal error (request id ${requestId}).`),
  /**
   * 500: the contract has the operation but the application has no handler for it yet (a spec
   * ahead of the code: the server still starts, and says which operation is missing).
   */
  notImplemented: (operationId: string) =>
    new EngineError(
      "not_implemented",
      `The operation ${operationId} is not implemented yet by this server.`,
    ),
  /** 503: a backing store is down. */
  serviceUnavailable: () =>
    new EngineError("service_unavailable", "The service is temporarily unavailable; retry later."),
  /** 503 from /readyz: the named backing services do not answer. */
  notReady: (services: string[]) =>
    new EngineError("service_unavailable", `Not reachable: ${services.join(", ")}.`),
} as const;

/** An answer given before a request could be read (written on the socket, then closed). */
export interface ConnectionError {
  status: number;
  /** The status line's reason phrase. */
  reason: string;
  code: string;
  message: string;
}

/**
 * A connection-level answer to a request that was parsed (refused at the edge: its target, its
 * Host, its framing, its declared length, its Expect), given through the app like any other
 * answer (http-server/edge-answers.ts): the error handler writes it as it writes an EngineError.
 */
export class EdgeRefusal extends EngineError {
  constructor(what: ConnectionError) {
    super("internal_error", what.message);
    this.name = "EdgeRefusal";
    // The connection codes are not the operations' (`info.x-connection-errors` lists them).
    Object.defineProperty(this, "code", { value: what.code, enumerable: true });
    Object.defineProperty(this, "status", { value: what.status, enumerable: true });
  }
}

/** The connection-level answers; `info.x-connection-errors` must list each code. */
export const connectionErrors = {
  malformedRequest: {
    status: 400,
    reason: "Bad Request",
    code: "malformed_request",
    message: "The request is not valid HTTP/1.1.",
  },
  /** HTTP/1.0 with Transfer-Encoding (RFC 9112 section 6.1: faulty framing). */
  http10Framing: {
    status: 400,
    reason: "Bad Request",
    code: "malformed_request",
    message: "Transfer-Encoding is not allowed in an HTTP/1.0 request.",
  },
  /** RFC 9112 section 3.2: exactly one Host, and a valid one. */
  badHost: {
    status: 400,
    reason: "Bad Request",
    code: "malformed_request",
    message: "The request needs exactly one valid Host header.",
  },
  connectNotServed: {
    status: 400,
    reason: "Bad Request",
    code: "malformed_request",
    message: "CONNECT is not served: this server is not a proxy.",
  },
  requestTimeout: {
    status: 408,
    reason: "Request Timeout",
    code: "request_timeout",
    message: "The request did not arrive in time.",
  },
  payloadTooLarge: {
    status: 413,
    reason: "Payload Too Large",
    code: "payload_too_large",
    message: "The declared Content-Length is over the request body limit.",
  },
  uriTooLong: {
    status: 414,
    reason: "URI Too Long",
    code: "uri_too_long",
    message: "The request target is too long.",
  },
  expectationFailed: {
    status: 417,
    reason: "Expectation Failed",
    code: "expectation_failed",
    message: "Only Expect: 100-continue is supported.",
  },
  headersTooLarge: {
    status: 431,
    reason: "Request Header Fields Too Large",
    code: "headers_too_large",
    message: "The request headers are too large.",
  },
  tooManyConnections: {
    status: 503,
    reason: "Service Unavailable",
    code: "too_many_connections",
    message: "Too many open connections; retry later.",
  },
} as const satisfies Record<string, ConnectionError>;

/** Every code of a connection-level answer. */
export const CONNECTION_ERROR_CODES = [
  ...new Set(Object.values(connectionErrors).map((error) => error.code)),
];
