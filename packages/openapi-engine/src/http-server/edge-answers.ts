/**
 * Requests refused at the edge (the edge checks of http-server.ts, an unsupported `Expect`) were
 * parsed: their answer is given through the app's own steps, like any other answer. It is
 * observed (one access line, the metrics), carries the response headers every answer carries (the
 * security headers, CORS) and the request id, its caller is identified and counted as the
 * contract's "What is counted" says (on the key it carries, else on its address; a caller over its
 * limit gets the 429 instead), and the error handler writes the edge's error in the `Error` shape.
 * The connection is closed after it (`Connection: close`, with a lingering close).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from "express";
import { type ConnectionError, EdgeRefusal } from "../errors.js";
import { compose } from "../routing/router.js";

/** Answers a parsed request with `what` through the app's steps. */
export type EdgeAnswer = (req: IncomingMessage, res: ServerResponse, what: ConnectionError) => void;

const answerers = new WeakMap<Express, EdgeAnswer>();

/** What an edge answer runs: the app's first steps, the caller's count, and its error handler. */
export interface EdgeAnswerOptions {
  steps: readonly RequestHandler[];
  errorHandler: ErrorRequestHandler;
}

/** Makes `app` answer requests refused at the edge through `options.steps` (see `edgeAnswerOf`). */
export function installEdgeAnswers(app: Express, options: EdgeAnswerOptions): void {
  const run = compose(options.steps);
  const { errorHandler } = options;
  const noop = () => {};
  answerers.set(app, (incoming, outgoing, what) => {
    const req = incoming as IncomingMessage & Request;
    const res = outgoing as ServerResponse & Response;
    // Made by the engine's server, so already Express's request and response
    // (express-messages.ts: their classes, `res.locals` included); what Express's router would
    // set besides, before the steps.
    req.res = res;
    res.req = req;
    req.originalUrl = req.url as string;
    req.baseUrl = "";
    req.params = {};
    run(req, res, (err?: unknown) => {
      // Set last: the response-headers step writes the header table in one object.
      res.setHeader("Connection", "close");
      try {
        errorHandler(err ?? new EdgeRefusal(what), req, res, noop);
      } catch {
        res.destroy();
      }
    });
  });
}

/** The edge answer `app` installed, if any. */
export function edgeAnswerOf(app: Express): EdgeAnswer | undefined {
  return answerers.get(app);
}
