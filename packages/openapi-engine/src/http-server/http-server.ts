/**
 * The HTTP server around the app: Node's server with the configured connection bounds, requests
 * and responses built with Express's prototypes (express-messages.ts), connection caps, answers
 * to what cannot be read as a request and to what Node would let through or answer itself (the
 * edge checks, `CONNECT`, `Expect`); and listening and closing. One file for Node's server and its
 * edge: what it refuses and how it answers.
 *
 * The edge checks (`edgeProblem`): what the engine refuses in a parsed request before the app sees
 * it, where Node lets it through (RFC 9112): a request target over the contract's bound (414),
 * `Transfer-Encoding` in an HTTP/1.0 request (faulty framing, section 6.1: what follows cannot be
 * trusted), a missing, repeated or invalid `Host` (section 3.2), and a declared `Content-Length`
 * over the body limit (413 before a byte of the body is read). These run on every request, so each
 * is a property read or a comparison; only the `Host` count walks the raw header list, without
 * allocating, and that one walk also counts the `Authorization` lines for the caller's
 * identification (auth/security.ts).
 *
 * The connection answers (`connectionAnswers`): answers given before a request could be read:
 * malformed HTTP (a smuggling attempt included), oversized headers or request target, a request
 * too slow to arrive, a connection over the caps, and the requests refused at the edge (the edge
 * checks above), `CONNECT` and an unsupported `Expect`. Node would answer most of these with an
 * empty body, or just drop the socket; these answer in the contract's Error shape with the codes
 * of `info.x-connection-errors` (the catalogue's `connectionErrors`), the rate-limit headers
 * (X-RateLimit-*, RateLimit-Policy, RateLimit) of the client address's window (read, not counted)
 * and an X-Request-Id, then close the connection with a lingering close (lingering-close.ts):
 * half-closed, what the client still sends read and thrown away within bounds, then destroyed, so
 * the client reads the answer and a client that keeps its side open cannot hold the descriptor.
 * Nothing else the connection carries is answered (`isRefused`).
 */

import { randomUUID } from "node:crypto";
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { performance } from "node:perf_hooks";
import type { PlanLimits } from "@animal-store/openapi";
import type { Express, Request, RequestHandler, Response } from "express";
import helmet from "helmet";
import { walkHeaderLines } from "../auth/security.js";
import type { AppConfig } from "../config.js";
import type { ErrorShape } from "../errors/problem-details.js";
import { type ConnectionError, connectionErrors } from "../errors.js";
import { expressMessageClasses } from "../express-messages.js";
import {
  type RateLimitDecision,
  type RateLimiter,
  rateLimitHeaderEntries,
} from "../rate-limit/index.js";
import { capConnections } from "./connection-caps.js";
import { type EdgeAnswer, edgeAnswerOf } from "./edge-answers.js";
import { lingerAfterAnswer, lingeringClose, setLingerSettings } from "./lingering-close.js";
import { portTakenMessage } from "./port-holder.js";
import { tuneV8ForServing } from "./v8-tuning.js";

/**
 * helmet, reduced to the headers that protect a JSON API (OWASP REST Security Cheat Sheet):
 * a deny-all CSP with `frame-ancestors 'none'`, X-Frame-Options, X-Content-Type-Options,
 * Strict-Transport-Security and Cross-Origin-Resource-Policy. The rest of helmet's set governs
 * how a browser renders and navigates HTML documents (referrer, DNS prefetch, opener, IE8
 * downloads, Flash policies, the legacy XSS auditor); an answer that is never rendered gains
 * nothing from them, and each costs every response a header (the docs page, which is HTML, has
 * its own full set in ops-routes.ts).
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    // DENY, in line with frame-ancestors 'none' (helmet's default is SAMEORIGIN).
    xFrameOptions: { action: "deny" },
  });
}

/**
 * helmet's security headers plus `Cache-Control: no-store` (answers depend on the caller's key),
 * as a list computed once: helmet runs at start-up against a recorder, so the values stay
 * helmet's while a request only copies a fixed list, without helmet's per-request dispatch.
 */
export function staticResponseHeaders(): ReadonlyArray<readonly [string, string]> {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, String(value)]),
    removeHeader: () => {},
  };
  securityHeaders()({} as Request, recorder as unknown as Response, () => {});
  if (headers.length === 0) throw new Error("helmet set no headers on the recorder");
  headers.push(["Cache-Control", "no-store"]);
  return headers;
}

/** What the server needs besides the app: its bounds and the anonymous window's limiter. */
export interface HttpServerOptions {
  config: Pick<AppConfig, "connections" | "trustProxy">;
  limiter: Pick<RateLimiter, "peek">;
  clock: () => number;
  /**
   * The limits callers without a key are counted on, for connection-level answers' headers;
   * undefined when the contract declares no rate limits (no such headers).
   */
  anonymousLimits: PlanLimits | undefined;
  /** How the contract's errors are written (its JSON error schema, else problem+json). */
  errorShape: ErrorShape;
  /** The contract's bounds on a request target and a request body. */
  bounds: EdgeBounds;
  /** Told of each answer given before a request could be read (`connectionAnswers`). */
  observed?: ConnectionAnswerDeps["observed"];
  /** Sets the serving V8 flags for the process (v8-tuning.ts); the application's choice. */
  tuneV8?: boolean | undefined;
}

/**
 * What the server serves: the request listener every request takes (api-app.ts), and the
 * Express app whose request and response classes the server builds requests with.
 */
export type ServedApp = RequestListener & { readonly express: Express };

/** Node's server for `app`, bounded as configured; not listening yet. */
export function createHttpServer(app: ServedApp, options: HttpServerOptions): Server {
  // Process-wide, before the first request (v8-tuning.ts says why), when the application asks.
  if (options.tuneV8 === true) tuneV8ForServing();
  const bounds = options.config.connections;
  const server = createServer({
    // A slow client cannot hold a connection for minutes (Node's defaults: 60 s for the
    // headers, 300 s for the request, checked every 30 s): the bounds are checked every second.
    headersTimeout: bounds.headersTimeoutMs,
    requestTimeout: bounds.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, bounds.headersTimeoutMs),
    keepAliveTimeout: bounds.keepAliveTimeoutMs,
    // Node's own answer to a missing Host is an empty 400: the edge checks answer it instead.
    requireHostHeader: false,
    ...expressMessageClasses(app.express),
  });
  setLingerSettings(server, bounds.linger);
  const answers = connectionAnswers(options);
  // The app serves every request: one road, under the base path and elsewhere.
  const handle = app;
  // A parsed request refused here is answered through the app's own steps when it has them.
  const answerAtEdge = edgeAnswerOf(app.express);
  const refuseRequest = (req: IncomingMessage, res: ServerResponse, what: ConnectionError) =>
    answerAtEdge
      ? answers.refuseThrough(req, res, what, answerAtEdge)
      : answers.refuseRequest(req, res, what);
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    // A request pipelined behind a refused one is never served.
    if (answers.isRefused(socket)) return;
    const problem = edgeProblem(req, options.bounds);
    if (problem === undefined) handle(req, res);
    else refuseRequest(req, res, problem);
  };
  server.on("request", serve);
  // Expect: 100-continue goes to the app without Node's automatic 100 Continue: the body step
  // sends it when it is about to read the body (not for a 401, a 404 or an early 413).
  server.on("checkContinue", serve);
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) =>
    refuseRequest(req, res, connectionErrors.expectationFailed),
  );
  // Without a listener Node drops a CONNECT connection without a word.
  server.on("connect", (_req: IncomingMessage, socket: Socket) =>
    answers.refuse(socket, connectionErrors.connectNotServed),
  );
  server.on("clientError", answers.clientError);
  capConnections(
    server,
    {
      total: bounds.maxConnections,
      // Behind a proxy every connection comes from its address: only the total cap applies.
      perAddress: options.config.trustProxy > 0 ? 0 : bounds.maxConnectionsPerAddress,
    },
    answers.refuseConnection,
  );
  return server;
}

/**
 * Listens on `port` and `host`; rejects on an error such as a port in use (its message names
 * the port and, where it can, the process holding it; the code stays EADDRINUSE).
 */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      if (err.code !== "EADDRINUSE") return reject(err);
      reject(Object.assign(new Error(portTakenMessage(port, host)), { code: err.code }));
    };
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      resolve();
    });
  });
}

/** The listening server's base address, e.g. http://127.0.0.1:41234. */
export function baseUrl(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * Stops accepting and lets in-flight requests finish. Keep-alive sockets are closed as soon as
 * they go idle (a request that finishes during the drain leaves its socket idle, hence the
 * sweep); whatever is still open after `timeoutMs` is cut.
 */
export function closeGracefully(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** The bounds the checks apply, from the contract. */
interface EdgeBounds {
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
interface ConnectionAnswerDeps {
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
function connectionAnswers(deps: ConnectionAnswerDeps) {
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
