/**
 * A Request that keeps the body it was built with, so a retry can re-send it without cloning
 * every request up front (the happy path pays nothing). openapi-fetch builds requests with it.
 */
export class ReplayableRequest extends Request {
  readonly replayBody: BodyInit | null | undefined;

  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(input, init);
    this.replayBody = init?.body;
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
 * Returns a function giving a fresh, sendable copy of `request` for each retry. Bodiless requests
 * are re-sent as they are; replayable bodies are re-attached; anything else is cloned once, now.
 */
export function replayerOf(request: Request): () => Request {
  if (request instanceof ReplayableRequest) {
    const body = request.replayBody;
    if (body === null || body === undefined) return () => request;
    if (isReusableBody(body)) return () => new Request(request, { body });
  } else if (request.body === null) {
    return () => request;
  }
  const spare = request.clone();
  return () => spare.clone();
}
