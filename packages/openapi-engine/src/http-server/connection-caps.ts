/**
 * Caps on concurrent connections: in total, and per client address (when no proxy stands in
 * front; behind one, every connection comes from the proxy's address). A connection over a cap
 * is answered 503 `too_many_connections` and closed at once, so a flood of idle or slow sockets
 * cannot take the process's descriptors, while clients under the caps are served.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";

/** The caps; `perAddress` 0 turns the per-address cap off. */
export interface ConnectionCaps {
  total: number;
  perAddress: number;
}

/** Counts the server's connections and refuses those over a cap with `refuse`. */
export function capConnections(
  server: Server,
  caps: ConnectionCaps,
  refuse: (socket: Socket) => void,
): { open(): number } {
  let open = 0;
  const byAddress = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "unknown";
    const mine = byAddress.get(address) ?? 0;
    if (open >= caps.total || (caps.perAddress > 0 && mine >= caps.perAddress)) {
      // Whatever the client sends is drained and never parsed: no request of a refused
      // connection reaches the app.
      socket.removeAllListeners("data");
      socket.on("data", () => {});
      refuse(socket);
      return;
    }
    open++;
    byAddress.set(address, mine + 1);
    socket.once("close", () => {
      open--;
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    });
  });
  return { open: () => open };
}
