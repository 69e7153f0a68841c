/**
 * The HTTP server around the app: Node's server with the configured connection bounds, requests
 * and responses built with Express's prototypes (express-messages.ts), connection caps, answers
 * to what cannot be read as a request (connection-answers.ts) and to what Node would let through
 * or answer itself (request-edge.ts, `CONNECT`, `Expect`); and listening and closing.
 */

import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { PlanLimits } from "@animal-store/openapi";
import type { Express } from "express";
import type { AppConfig } from "../config.js";
import type { ErrorShape } from "../errors/problem-details.js";
import { type ConnectionError, connectionErrors } from "../errors.js";
import { expressMessageClasses } from "../express-messages.js";
import type { RateLimiter } from "../rate-limit/index.js";
import { type ConnectionAnswerDeps, connectionAnswers } from "./connection-answers.js";
import { capConnections } from "./connection-caps.js";
import { edgeAnswerOf } from "./edge-answers.js";
import { setLingerSettings } from "./lingering-close.js";
import { portTakenMessage } from "./port-holder.js";
import { type EdgeBounds, edgeProblem } from "./request-edge.js";
import { tuneV8ForServing } from "./v8-tuning.js";

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
  /** Told of each answer given before a request could be read (connection-answers.ts). */
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
