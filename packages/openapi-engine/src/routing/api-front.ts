/**
 * The front door for requests under the base path: the same steps the Express app runs for them
 * (metrics, the request context and response headers, the router with its three lifecycles, the
 * error handler), called directly instead of through Express's router.
 *
 * Express's `app.handle` and its router cost every request a final-handler closure, a walk of
 * the app's layers with a path match each, the base path trimmed from `req.url` and restored,
 * and a `next` per layer; none of it decides anything for a request the API router answers. The
 * front does what those steps need of Express and nothing else: `req.res`/`res.req`,
 * `res.locals` (request-context/locals.ts), `req.originalUrl`, `req.baseUrl` and `req.url` as the mounted router sees them,
 * and `req.params`. Requests and responses keep Express's prototypes (`req.query`, `req.ip`,
 * `req.path` and `res`'s helpers are Express's own).
 *
 * Only a request whose target starts with the base path exactly, followed by `/`, takes the front;
 * every other one (the ops routes, `/V1/...` which Express's case-insensitive mount also takes,
 * an absolute-form target) goes to the Express app, which mounts the same steps, so both roads
 * answer alike (test/api-front.test.ts sends the same requests down both).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from "express";
import { engineErrors } from "../errors.js";
import { compose } from "../lifecycle/compose.js";
import { newLocals } from "../request-context/locals.js";

/** What the front runs: the app's steps for a request under `basePath`, and its error handler. */
export interface ApiFrontOptions {
  basePath: string;
  /** In order: what every request runs first (metrics, context, headers), then the router. */
  steps: readonly RequestHandler[];
  errorHandler: ErrorRequestHandler;
}

const fronts = new WeakMap<Express, RequestListener>();

/** Makes `app` answer requests under `options.basePath` through the front (see `apiListener`). */
export function installApiFront(app: Express, options: ApiFrontOptions): void {
  const { basePath, errorHandler } = options;
  // An API at the root has no path of its own to recognise: Express serves everything.
  if (basePath === "") return;
  const run = compose(options.steps);
  const handle = app as unknown as RequestListener;
  const noop = () => {};
  const front: RequestListener = (incoming, outgoing) => {
    const url = incoming.url as string;
    if (url.charCodeAt(basePath.length) !== 47 /* "/" */ || !url.startsWith(basePath)) {
      handle(incoming, outgoing);
      return;
    }
    const req = incoming as IncomingMessage & Request;
    const res = outgoing as ServerResponse & Response;
    // As app.handle does; a server built without the app's message classes (express-messages.ts)
    // still gets Express's prototypes, as it would from Express.
    if (Object.getPrototypeOf(req) !== app.request) Object.setPrototypeOf(req, app.request);
    if (Object.getPrototypeOf(res) !== app.response) Object.setPrototypeOf(res, app.response);
    req.res = res;
    res.req = req;
    // Born with them when the server has the app's message classes (express-messages.ts).
    if (res.locals === undefined) res.locals = newLocals();
    // As the router mounted on the base path sees the request.
    req.originalUrl = url;
    req.baseUrl = basePath;
    req.url = url.slice(basePath.length);
    req.params = {};
    run(req, res, (err?: unknown) => {
      // As the router restores it before the app's error handler.
      req.url = url;
      req.baseUrl = "";
      // The API router answers every request it is given; reaching here without an error is a
      // bug in a step, answered as Express's app would have ended it: 404.
      const error = err ?? engineErrors.noSuchPath(url.split("?", 1)[0] as string);
      try {
        errorHandler(error, req, res, noop);
      } catch {
        // The error handler itself failed: no answer can be trusted, so none is half-sent.
        res.destroy();
      }
    });
  };
  fronts.set(app, front);
}

/** What a Node server should call for each request of `app`: its front if it has one. */
export function apiListener(app: Express): RequestListener {
  return fronts.get(app) ?? (app as unknown as RequestListener);
}
