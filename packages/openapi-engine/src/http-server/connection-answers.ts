/**
 * Answers given before a request could be read: malformed HTTP (a smuggling attempt included),
 * oversized headers or request target, a request too slow to arrive, a connection over the caps,
 * and the requests refused at the edge (request-edge.ts), `CONNECT` and an unsupported `Expect`.
 * Node would answer most of these with an empty body, or just drop the socket; these answer in
 * the contract's Error shape with the codes of `info.x-connection-errors` (the catalogue's
 * `connectionErrors`), the rate-limit headers (X-RateLimit-*, RateLimit-Policy, RateLimit) of the
 * client address's window (read, not counted) and an X-Request-Id, then close the connection with a lingering close (lingering-close.ts):
 * half-closed, what the client still sends read and thrown away within bounds, then destroyed, so
 * the client reads the answer and a client that keeps its side open cannot hold the descriptor.
 * Nothing else the connection carries is answered (`isRefused`).
 */

import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import type { PlanLimits } from "@animal-store/openapi";
import type { ErrorShape } from "../errors/problem-details.js";
import { type ConnectionError, connectionErrors } from "../errors.js";
import {
  type RateLimitDecision,
  type RateLimiter,
  rateLimitHeaderEntries,
} from "../rate-limit/index.js";
import { staticResponseHeaders } from "../response-headers/response-headers.js";
import type { EdgeAnswer } from "./edge-answers.js";
import { lingerAfterAnswer, lingeringClose } from "./lingering-close.js";

/** Node's parser errors that have an answer of their own; any other is a malformed request. */
const BY_ERROR: Record<string, ConnectionError> = {
  HPE_HEADER_OVERFLOW: connectionErrors.headersTooLarge,
  ERR_HTTP_REQUEST_TIMEOUT: connectionErrors.requestTimeout,
};

// The start of a request line: a method, a space, then the target.
const REQUEST_LINE_START = /^[A-Z]+ [^\s]/;

/**
 * Node's header bound counts the request line too. When the bytes the parser gave up in are
 * still the request line (no line break yet, from the method on), the target is what is too
 * long: 414, not 431. A target dribbled in pieces cannot be told apart and gets 431.
 */
function overflowAnswer(err: Error & { rawPacket?: Buffer; bytesParsed?: number }) {
  const packet = err.rawPacket;
  if (packet === undefined) return connectionErrors.headersTooLarge;
  const read = packet.subarray(0, err.bytesParsed ?? packet.length);
  return read.indexOf(10) === -1 && REQUEST_LINE_START.test(read.subarray(0, 32).toString("latin1"))
    ? connectionErrors.uriTooLong
    : connectionErrors.headersTooLarge;
}

/**
 * Makes the close that follows a `Connection: close` answer on `socket` a lingering one:
 * half-closed once the answer is flushed, what the client still sends read and thrown away within
 * the server's linger bounds, then destroyed (lingering-close.ts). Called before the answer ends.
 */
export function closeWithin(socket: Socket): void {
  lingerAfterAnswer(socket);
}

/** What the answers need to say about the client address's rate-limit window. */
export interface ConnectionAnswerDeps {
  limiter: Pick<RateLimiter, "peek">;
  clock: () => number;
  /**
   * The limits callers without a key are counted on (the contract's anonymous plan); undefined
   * when the contract declares no rate limits: the answers then carry no rate-limit headers.
   */
  anonymousLimits: PlanLimits | undefined;
  /** How the contract's errors are written (its JSON error schema, else problem+json). */
  errorShape: ErrorShape;
  /**
   * Told of each answer written on the socket (no request could be read): its status, request
   * id and milliseconds since it was decided, for the access line and the metrics (start.ts).
   */
  observed?: ((status: number, requestId: string, ms: number) => void) | undefined;
}

// The headers every answer of the engine carries (the security headers, `no-store`), as the
// lines of a raw answer.
const STATIC_LINES = staticResponseHeaders()
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join("");

/** The `clientError` listener and the refusal of a connection over a cap. */
export function connectionAnswers(deps: ConnectionAnswerDeps) {
  // Sockets answered already: one answer each, and no request of theirs reaches the app.
  const refused = new WeakSet<Socket>();
  const { anonymousLimits, errorShape } = deps;
  async function peek(socket: Socket): Promise<RateLimitDecision | undefined> {
    if (anonymousLimits === undefined) return undefined;
    try {
      return await deps.limiter.peek(
        `addr:${socket.remoteAddress ?? "unknown"}`,
        anonymousLimits,
        deps.clock(),
      );
    } catch {
      // The headers are the only thing lost; the answer still goes out.
      return undefined;
    }
  }
  const bodyOf = (what: ConnectionError) => errorShape.render(what);
  async function answer(socket: Socket, what: ConnectionError, extra = ""): Promise<void> {
    if (refused.has(socket)) return;
    refused.add(socket);
    const decidedAt = performance.now();
    const decision = await peek(socket);
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = bodyOf(what);
    const limits = decision
      ? rateLimitHeaderEntries(decision)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join("")
      : "";
    const requestId = randomUUID();
    socket.end(
      `HTTP/1.1 ${what.status} ${what.reason}\r\n` +
        `Content-Type: ${errorShape.contentType}\r\n` +
        STATIC_LINES +
        `X-Request-Id: ${requestId}\r\n` +
        limits +
        extra +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Connection: close\r\n\r\n" +
        body,
    );
    lingeringClose(socket);
    deps.observed?.(what.status, requestId, performance.now() - decidedAt);
  }
  return {
    /** `clientError` listener for node:http servers. */
    clientError(err: Error & { code?: string }, socket: Socket): void {
      if (refused.has(socket)) return;
      if (!socket.writable || (err.code === "ECONNRESET" && socket.destroyed)) {
        socket.destroy();
        return;
      }
      const what =
        err.code === "HPE_HEADER_OVERFLOW"
          ? overflowAnswer(err)
          : (BY_ERROR[err.code ?? ""] ?? connectionErrors.malformedRequest);
      void answer(socket, what);
    },
    /** Answers a CONNECT (a socket Node has let go of) with `what`, and closes it. */
    refuse(socket: Socket, what: ConnectionError): void {
      void answer(socket, what);
    },
    /**
     * Answers a parsed request with `what` instead of the app, through its response (so it keeps
     * its place behind the answers to requests pipelined before it), and closes the connection.
     */
    refuseRequest(req: IncomingMessage, res: ServerResponse, what: ConnectionError): void {
      const socket = req.socket;
      if (refused.has(socket)) return;
      refused.add(socket);
      void peek(socket).then((decision) => {
        const body = bodyOf(what);
        closeWithin(socket);
        res.writeHead(what.status, what.reason, {
          ...Object.fromEntries(staticResponseHeaders()),
          "Content-Type": errorShape.contentType,
          "X-Request-Id": randomUUID(),
          ...(decision && Object.fromEntries(rateLimitHeaderEntries(decision))),
          "Content-Length": Buffer.byteLength(body),
          Connection: "close",
        });
        res.end(body);
      });
    },
    /**
     * Answers a parsed request with `what` through the app's own steps (edge-answers.ts), and
     * closes the connection after it.
     */
    refuseThrough(
      req: IncomingMessage,
      res: ServerResponse,
      what: ConnectionError,
      answer: EdgeAnswer,
    ): void {
      const socket = req.socket;
      if (refused.has(socket)) return;
      refused.add(socket);
      closeWithin(socket);
      answer(req, res, what);
    },
    /** Whether `socket` was answered at the edge: no later request of it is served. */
    isRefused(socket: Socket): boolean {
      return refused.has(socket);
    },
    /** Answers a connection over a cap with 503 and closes it. */
    refuseConnection(socket: Socket): void {
      void answer(socket, connectionErrors.tooManyConnections, "Retry-After: 1\r\n");
    },
  };
}
