/**
 * Requests too broken for Express (malformed HTTP, oversized headers, too slow to arrive) are
 * answered by Node itself with an empty body; this answers them with the contract's Error body
 * instead, then closes the connection.
 */
import type { Socket } from "node:net";

const ANSWERS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    message: "The request headers are too large.",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: "Request Timeout",
    message: "The request did not arrive in time.",
  },
};
const MALFORMED = { status: 400, reason: "Bad Request", message: "The request is not valid HTTP." };

/** `clientError` listener for node:http servers. */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || (err.code === "ECONNRESET" && socket.destroyed)) {
    socket.destroy();
    return;
  }
  const answer = ANSWERS[err.code ?? ""] ?? MALFORMED;
  const body = JSON.stringify({
    code: "validation_failed",
    message: answer.message,
    status: answer.status,
  });
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      "Cache-Control: no-store\r\n" +
      "X-Content-Type-Options: nosniff\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "Connection: close\r\n\r\n" +
      body,
  );
}
