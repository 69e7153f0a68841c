import { type CallOptions, checkCallOptions } from "./call-options.js";

/** Init key the client sets when openapi-fetch may build the call as a light {@link DirectCall}. */
export const DIRECT = Symbol("animal-store.direct");

/** The header access the transport needs: a `Headers`, or a plain call's header object. */
export type HeaderAccess = Pick<Headers, "get" | "set">;

/** The init openapi-fetch builds a request from: fetch's own and the call options. */
type CallInit = RequestInit & CallOptions & { [DIRECT]?: boolean };

/**
 * What a call needs beyond fetch's own fields, on every request the client builds: the body it
 * was built with, so a retry can re-send it without cloning every request up front (the happy
 * path pays nothing); the call options (openapi-fetch passes the client's and the call's in
 * `init`); and, when a timeout applies, the controller of a signal of the
 * client's own in place of the caller's, so an attempt can be cut without another Request.
 */
export interface OwnRequest {
  readonly replayBody: BodyInit | null | undefined;
  readonly callOptions: CallInit;
  /** The caller's own signal (the request's signal is the client's when `attempt` is set). */
  readonly callerSignal: AbortSignal | undefined;
  /** Aborts the first attempt; set when `timeoutMs` or `deadlineMs` applies. */
  readonly attempt: AbortController | undefined;
}

/**
 * The request class openapi-fetch builds every call's request with.
 *
 * When the client marks the call direct (no middleware will look at it as a `Request`, and the
 * global fetch sends it), it stays this light object: the URL and the init openapi-fetch made
 * (whose `headers` is already a `Headers`), which the transport sends as `fetch(url, init)`.
 * Why: `fetch(request)` copies a Request into a second one whose signal follows the first, so a
 * Request built only to be handed to fetch is built twice. The real Request, and every check
 * its constructor makes, then happens once, inside fetch.
 *
 * Otherwise, and for a body other than a string (openapi-fetch's JSON; a stream, which a retry
 * must clone), the constructor returns a real `Request` carrying the same {@link OwnRequest}
 * fields.
 */
export class DirectCall implements OwnRequest {
  // Declared only: the constructor either sets them all or returns a Request instead.
  declare readonly url: string;
  declare readonly method: string;
  declare readonly headers: HeaderAccess;
  declare readonly replayBody: BodyInit | null | undefined;
  declare readonly callOptions: CallInit;
  declare readonly callerSignal: AbortSignal | undefined;
  declare readonly attempt: AbortController | undefined;
  /** What fetch is given besides the URL: openapi-fetch's init, with this attempt's signal. */
  declare readonly init: RequestInit;

  /**
   * `light`: a plain call's, always light (its body is a string, if any); else as openapi-fetch
   * builds it, light when marked direct. `signal` is given only for a retry, in place of the
   * first attempt's.
   */
  constructor(
    input: RequestInfo | URL,
    init: CallInit,
    light?: boolean,
    signal?: AbortSignal,
    headers?: HeaderAccess,
  ) {
    const body = init.body;
    const callerSignal = init.signal ?? undefined;
    let attempt: AbortController | undefined;
    if (!signal && (init.timeoutMs !== undefined || init.deadlineMs !== undefined)) {
      checkCallOptions(init, "");
      attempt = new AbortController();
    }
    const sent = signal ?? attempt?.signal ?? callerSignal;
    const fetchInit = sent === callerSignal ? init : { ...init, signal: sent };
    if (!light && (!init[DIRECT] || (body != null && typeof body !== "string"))) {
      const request = new Request(input, fetchInit);
      const own: OwnRequest = { replayBody: body, callOptions: init, callerSignal, attempt };
      // biome-ignore lint/correctness/noConstructorReturn: these calls need a real Request.
      return Object.assign(request, own) as unknown as DirectCall;
    }
    this.replayBody = body;
    this.callOptions = init;
    this.callerSignal = callerSignal;
    this.attempt = attempt;
    this.url = String(input);
    // openapi-fetch and a plain call always set it, in upper case.
    this.method = init.method as string;
    // openapi-fetch's Headers, or a plain call's access to its plain object: either way the
    // headers fetch is given, which the client sets.
    this.headers = headers ?? (init.headers as Headers);
    this.init = fetchInit;
  }
}

/** The request's client-side fields, when the client built it; undefined for any other Request. */
export function ownRequestOf(request: Request | DirectCall): OwnRequest | undefined {
  return "callOptions" in request ? (request as OwnRequest) : undefined;
}

/** Whether a body can be handed to a new Request again (a stream can be read only once). */
function isReusableBody(body: BodyInit | null | undefined): boolean {
  return (
    typeof body === "string" ||
    body instanceof URLSearchParams ||
    body instanceof Blob ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    (typeof FormData !== "undefined" && body instanceof FormData)
  );
}

/**
 * Returns a function giving a fresh, sendable copy of `request` for each retry, with `signal`
 * when given. Bodiless requests without a new signal are re-sent as they are; replayable bodies
 * are re-attached; anything else is cloned once, now.
 */
export function replayerOf(request: Request): (signal?: AbortSignal) => Request;
export function replayerOf(
  request: Request | DirectCall,
): (signal?: AbortSignal) => Request | DirectCall;
export function replayerOf(
  request: Request | DirectCall,
): (signal?: AbortSignal) => Request | DirectCall {
  if (request instanceof DirectCall) {
    const { url, callOptions, callerSignal, headers } = request;
    // callOptions is the whole init, headers included: the object every attempt is sent with.
    const init = { ...callOptions, signal: callerSignal };
    return (signal) => (signal ? new DirectCall(url, init, true, signal, headers) : request);
  }
  const body = ownRequestOf(request)?.replayBody;
  if (body == null ? request.body === null : isReusableBody(body)) {
    return (signal) =>
      body == null
        ? signal
          ? new Request(request, { signal })
          : request
        : new Request(request, signal ? { body, signal } : { body });
  }
  const spare = request.clone();
  return (signal) => (signal ? new Request(spare.clone(), { signal }) : spare.clone());
}
