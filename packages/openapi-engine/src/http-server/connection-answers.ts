/**
 * Answers given before a request could be read: malformed HTTP (a smuggling attempt included),
 * oversized headers, a request too slow to arrive, a connection over the caps. Node would answer
 * the first three with an empty body, and a cap would just drop the socket; these answer in the
 * contract's Error shape with the codes of `info.x-connection-errors` (the catalogue's
 * `connectionErrors`), the X-RateLimit-* of the
 * client address's window (read, not counted) and an X-Request-Id, then close the connection.
 */
import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import type { PlanLimits } from "@animal-store/openapi";
import { type ConnectionError, connectionErrors } from "../errors.js";
import type { RateLimitDecision, RateLimiter } from "../rate-limit/index.js";

/** Node's parser errors that have an answer of their own; any other is a malformed request. */
const BY_ERROR: Record<string, ConnectionError> = {
  HPE_HEADER_OVERFLOW: connectionErrors.headersTooLarge,
  ERR_HTTP_REQUEST_TIMEOUT: connectionErrors.requestTimeout,
};

/** What the answers need to say about the client address's rate-limit window. */
export interface ConnectionAnswerDeps {
  limiter: Pick<RateLimiter, "peek">;
  clock: () => number;
  /** The limits callers without a key are counted on (the contract's anonymous plan). */
  anonymousLimits: PlanLimits;
}

/** The `clientError` listener and the refusal of a connection over a cap. */
export function connectionAnswers(deps: ConnectionAnswerDeps) {
  async function answer(socket: Socket, what: ConnectionError, extra = ""): Promise<void> {
    let decision: RateLimitDecision | undefined;
    try {
      decision = await deps.limiter.peek(
        `addr:${socket.remoteAddress ?? "unknown"}`,
        deps.anonymousLimits,
        deps.clock(),
      );
    } catch {
      // The headers are the only thing lost; the answer still goes out.
    }
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify({ code: what.code, message: what.message, status: what.status });
    const limits = decision
      ? `X-RateLimit-Limit: ${decision.limit}\r\nX-RateLimit-Remaining: ${decision.remaining}\r\n` +
        `X-RateLimit-Reset: ${decision.reset}\r\n`
      : "";
    socket.end(
      `HTTP/1.1 ${what.status} ${what.reason}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        "Cache-Control: no-store\r\n" +
        "X-Content-Type-Options: nosniff\r\n" +
        `X-Request-Id: ${randomUUID()}\r\n` +
        limits +
        extra +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Connection: close\r\n\r\n" +
        body,
    );
  }
  return {
    /** `clientError` listener for node:http servers. */
    clientError(err: Error & { code?: string }, socket: Socket): void {
      if (!socket.writable || (err.code === "ECONNRESET" && socket.destroyed)) {
        socket.destroy();
        return;
      }
      void answer(socket, BY_ERROR[err.code ?? ""] ?? connectionErrors.malformedRequest);
    },
    /** Answers a connection over a cap with 503 and closes it. */
    refuseConnection(socket: Socket): void {
      void answer(socket, connectionErrors.tooManyConnections, "Retry-After: 1\r\n");
    },
  };
}
