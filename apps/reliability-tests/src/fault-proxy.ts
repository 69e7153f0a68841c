/**
 * A TCP proxy between the server and one backing service (PostgreSQL, Redis) that a test can cut
 * and restore: a real network fault for the server without stopping the machine's shared service.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

/** How the link behaves while it is faulty. */
export type FaultMode =
  /** Existing connections are reset and new ones are accepted then reset at once ("down"). */
  | "reset"
  /** Existing connections are reset; new ones are accepted and then never answered ("hung"). */
  | "blackhole"
  /** A partition: live connections stay open but carry nothing; new ones are never answered. */
  | "freeze";

/** A running proxy and its switches. */
export interface FaultProxy {
  /** The local port the server should connect to instead of the real service. */
  readonly port: number;
  /** Rewrites a service URL (postgres://..., redis://...) to go through this proxy. */
  rewrite(url: string): string;
  /** Breaks the link: every live connection is destroyed; new ones behave as `mode` says. */
  cut(mode?: FaultMode): void;
  /** Mends the link: new connections are forwarded again. */
  restore(): void;
  /** Connections currently forwarded (both ends open). */
  readonly liveConnections: number;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (ephemeral port) forwarding to `target`. */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode | null = null;
  const pairs = new Set<[Socket, Socket]>();
  const held = new Set<Socket>();

  const server: Server = createServer((client) => {
    client.on("error", () => client.destroy());
    if (mode === "reset") {
      client.resetAndDestroy();
      return;
    }
    if (mode === "blackhole" || mode === "freeze") {
      held.add(client);
      client.on("close", () => held.delete(client));
      return;
    }
    const upstream = connect(target);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    upstream.on("error", drop);
    upstream.on("close", drop);
    client.on("close", drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });

  const freezeAll = () => {
    for (const [client, upstream] of pairs) {
      client.unpipe();
      upstream.unpipe();
      client.pause();
      upstream.pause();
    }
  };
  const thawAll = () => {
    for (const [client, upstream] of pairs) {
      if (!client.isPaused()) continue;
      client.pipe(upstream);
      upstream.pipe(client);
    }
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no port");

  const killAll = () => {
    for (const [client, upstream] of pairs) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    pairs.clear();
  };

  return {
    port: address.port,
    rewrite(url: string): string {
      const u = new URL(url);
      u.hostname = "127.0.0.1";
      u.port = String(address.port);
      return u.toString();
    },
    cut(newMode: FaultMode = "reset") {
      mode = newMode;
      if (newMode === "freeze") freezeAll();
      else killAll();
    },
    restore() {
      mode = null;
      thawAll();
      for (const socket of held) socket.destroy();
      held.clear();
    },
    get liveConnections() {
      return pairs.size;
    },
    async close() {
      killAll();
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Host and port of a service URL, with the scheme's default port. */
export function serviceAddress(url: string, defaultPort: number): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname || "127.0.0.1", port: Number(u.port || defaultPort) };
}
