/**
 * What the engine refuses in a parsed request before the app sees it, where Node lets it through
 * (RFC 9112): a request target over the contract's bound (414), `Transfer-Encoding` in an HTTP/1.0
 * request (faulty framing, section 6.1: what follows cannot be trusted), a missing, repeated or
 * invalid `Host` (section 3.2), and a declared `Content-Length` over the body limit (413 before
 * a byte of the body is read). These run on every request, so each is a property read or a
 * comparison; only the `Host` count walks the raw header list, without allocating, and that one
 * walk also counts the `Authorization` lines for the caller's identification (auth/security.ts).
 */
import type { IncomingMessage } from "node:http";
import { walkHeaderLines } from "../auth/security.js";
import { type ConnectionError, connectionErrors } from "../errors.js";

/** The bounds the checks apply, from the contract. */
export interface EdgeBounds {
  /** The longest request target (path and query) served, in bytes. */
  targetLimitBytes: number;
  /** The largest request body read, in bytes. */
  bodyLimitBytes: number;
}

// RFC 3986 section 3.2.2: an IP literal in brackets, or a reg-name (IPv4 addresses are
// reg-names too), then an optional port. An empty value is allowed (RFC 9112 section 3.2).
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/;

/** The answer `req` gets instead of reaching the app, or undefined when it may go on. */
export function edgeProblem(req: IncomingMessage, bounds: EdgeBounds): ConnectionError | undefined {
  // Node checks the request line against its header bound only; a shorter target can still
  // be over the contract's.
  if ((req.url as string).length > bounds.targetLimitBytes) return connectionErrors.uriTooLong;
  const headers = req.headers;
  if (req.httpVersionMinor === 0 && headers["transfer-encoding"] !== undefined) {
    return connectionErrors.http10Framing;
  }
  const host = headers.host;
  if (host === undefined) {
    if (req.httpVersionMinor !== 0) return connectionErrors.badHost;
  } else if (!HOST.test(host) || walkHeaderLines(req) > 1) {
    return connectionErrors.badHost;
  }
  const length = headers["content-length"];
  if (length !== undefined && Number(length) > bounds.bodyLimitBytes) {
    return connectionErrors.payloadTooLarge;
  }
  return undefined;
}
