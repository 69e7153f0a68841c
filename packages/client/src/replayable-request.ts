import { type CallOptions, checkCallOptions } from "./call-options.js";

/** Init key under which the client's methods pass the operationId of a call (never sent). */
export const OPERATION_ID = Symbol("animal-store.operationId");

/** The init openapi-fetch builds a request from: fetch's own, the call options, the operation. */
type CallInit = RequestInit & CallOptions & { [OPERATION_ID]?: string };

/**
 * A Request that keeps what a call needs beyond fetch's own fields: the body it was built with,
 * so a retry can re-send it without cloning every request up front (the happy path pays
 * nothing); the call options (openapi-fetch passes the client's and the call's in `init`); and,
 * when a timeout applies, a signal of the client's own in place of the caller's, so an attempt
 * can be cut without building a second Request. openapi-fetch builds requests with it.
 */
export class ReplayableRequest extends Request {
  readonly replayBody: BodyInit | null | undefined;
  readonly callOptions: CallOptions;
  /** The operationId the client's method named, if any. */
  readonly operationId: string | undefined;
  /** The caller's own signal (the request's `signal` is the client's when `attempt` is set). */
  readonly callerSignal: AbortSignal | undefined;
  /** Aborts the first attempt; set when `timeoutMs` or `deadlineMs` applies. */
  readonly attempt: AbortController | undefined;

  constructor(input: RequestInfo | URL, init?: CallInit) {
    const timed = init?.timeoutMs !== undefined || init?.deadlineMs !== undefined;
    if (timed) checkCallOptions(init, "");
    const attempt = timed ? new AbortController() : undefined;
    super(input, attempt ? { ...init, signal: attempt.signal } : init);
    this.replayBody = init?.body;
    this.callOptions = init ?? {};
    this.operationId = init?.[OPERATION_ID];
    this.callerSignal = init?.signal ?? undefined;
    this.attempt = attempt;
  }
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
export function replayerOf(request: Request): (signal?: AbortSignal) => Request {
  if (request instanceof ReplayableRequest) {
    const body = request.replayBody;
    if (body === null || body === undefined) {
      return (signal) => (signal ? new Request(request, { signal }) : request);
    }
    if (isReusableBody(body)) {
      return (signal) => new Request(request, signal ? { body, signal } : { body });
    }
  } else if (request.body === null) {
    return (signal) => (signal ? new Request(request, { signal }) : request);
  }
  const spare = request.clone();
  return (signal) => (signal ? new Request(spare.clone(), { signal }) : spare.clone());
}
