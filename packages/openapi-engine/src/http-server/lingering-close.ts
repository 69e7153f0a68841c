/**
 * Lingering close (RFC 9112 section 9.6; nginx's `lingering_close`). An answer given while the
 * client is still sending its request (an early 413, any connection-level answer) must not be
 * followed by a full close: data arriving at a closed socket makes the kernel reset the
 * connection, and the reset throws away the answer the client has not read yet. Clients that send
 * the whole body before reading (Python's urllib) then never see the answer at all.
 *
 * So the connection is half-closed once the answer is flushed (FIN: nothing more is sent), what
 * the client still sends is read and thrown away, and the connection is destroyed when the
 * client closes its side, or has sent nothing for `idleMs`, or `maxMs` after the answer, or once
 * more than `maxBytes` were thrown away, whichever comes first. A client that keeps its side open
 * and sends nothing holds the descriptor for `idleMs` at most; one that keeps sending, `maxMs`.
 * Nothing read here is answered.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { DEFAULT_LINGER, type LingerSettings } from "../config.js";

// A server's own settings (createHttpServer); a socket of any other server gets the defaults.
const byServer = new WeakMap<object, LingerSettings>();
const lingering = new WeakSet<Socket>();

/** Gives `server`'s connections these bounds. */
export function setLingerSettings(server: Server, settings: LingerSettings): void {
  byServer.set(server, settings);
}

function settingsOf(socket: Socket): LingerSettings {
  const server = (socket as Socket & { server?: object }).server;
  return (server && byServer.get(server)) ?? DEFAULT_LINGER;
}

/**
 * Makes Node's close after a `Connection: close` answer (destroySoon(): a full close as soon as
 * the answer is flushed) a lingering close. Call it before the answer ends.
 */
export function lingerAfterAnswer(socket: Socket): void {
  socket.destroySoon = () => lingeringClose(socket);
}

/**
 * Half-closes `socket` after what was written to it (the answer), reads and discards what the
 * client still sends within the bounds, then destroys it. Calling it again does nothing.
 */
export function lingeringClose(socket: Socket, settings = settingsOf(socket)): void {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);
  // From here on Node's full close after an answer is this half-close.
  socket.destroySoon = () => socket.end();
  // Node's HTTP parser may read the socket itself (no `data` events): what arrives is counted
  // from bytesRead, checked a few times per idle period.
  const start = socket.bytesRead;
  let seen = start;
  let quietSince = performance.now();
  const destroy = () => socket.destroy();
  const total = setTimeout(destroy, settings.maxMs);
  const check = setInterval(
    () => {
      const read = socket.bytesRead;
      const now = performance.now();
      if (read - start > settings.maxBytes) return destroy();
      if (read !== seen) {
        seen = read;
        quietSince = now;
      } else if (now - quietSince >= settings.idleMs) destroy();
    },
    Math.max(10, Math.min(250, settings.idleMs / 4)),
  );
  total.unref();
  check.unref();
  // The client has closed its side: nothing more will come once the answer is out.
  socket.once("end", () => {
    if (socket.writableFinished) destroy();
    else socket.once("finish", destroy);
  });
  socket.once("close", () => {
    clearTimeout(total);
    clearInterval(check);
  });
  if (!socket.writableEnded) socket.end();
  socket.resume();
}
