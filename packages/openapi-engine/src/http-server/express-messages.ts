/**
 * Requests and responses born with Express's prototypes.
 *
 * Express's `app.handle` gives every request and response its prototype (`app.request`,
 * `app.response`) with `Object.setPrototypeOf`, after Node has built them. In V8 that gives each
 * object a hidden class of its own: no two requests shared one (checked with
 * `%DebugPrint` under --allow-natives-syntax), so every property access in Node's, Express's and
 * our code met a new shape on every request, and every request allocated new hidden classes.
 *
 * Node's HTTP server takes the classes it builds requests and responses with. These subclass
 * Node's own, their prototypes inherit from Express's, and they become the app's `app.request` /
 * `app.response`, so Express's call finds the prototype already set and changes nothing. Every
 * request then shares one hidden class, sized by V8 for the properties it gets, and so does every
 * response. The methods each object sees are Express's and Node's, as before.
 *
 * This bought more than any other change to the server (apps/bench/README.md has the figures).
 * It is the one place the engine leans on how Express builds a request (`app.handle` gives each
 * request and response `app.request` / `app.response` as prototypes and keeps a `res.locals` it
 * finds), so the module probes that at load and refuses to load, naming what moved, when an
 * upgrade of Express changes it.
 */
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import express, { type Express } from "express";
import { bareClass } from "../bare-objects.js";

/**
 * `res.locals` of every response: one object shape for every request. Express makes it
 * `Object.create(null)`, which V8 keeps as a dictionary; every step reads its locals by name
 * (`operation`, `caller`, `requestId`...), so each read was a hash lookup. An instance of a
 * constructor setting every local the engine's steps set is a fast object with a fixed layout,
 * and nothing is inherited, as with Express's (no `constructor` or `toString` to be read by
 * mistake: bare-objects.ts). A step that sets a local not declared here still works
 * (the object grows a property), only slower.
 */
interface LocalsShape {
  requestId: string | undefined;
  startedAt: number | undefined;
  operation: unknown;
  caller: unknown;
  allow: string | undefined;
  unmatched: unknown;
}

const Locals = bareClass<LocalsShape>(function Locals(this: LocalsShape) {
  this.requestId = undefined;
  this.startedAt = undefined;
  this.operation = undefined;
  this.caller = undefined;
  this.allow = undefined;
  this.unmatched = undefined;
});

/** A fresh `res.locals`. */
export function newLocals(): Record<string, unknown> {
  return new Locals() as unknown as Record<string, unknown>;
}

export interface MessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

const installed = new WeakMap<Express, MessageClasses>();

/**
 * `createServer` options whose requests and responses have `app`'s prototypes from the start.
 * Makes their prototypes `app.request` / `app.response`: call it before `app` serves a request.
 */
export function expressMessageClasses(app: Express): MessageClasses {
  const existing = installed.get(app);
  if (existing) return existing;
  class ExpressRequest extends IncomingMessage {
    // Born with what the edge's header walk leaves (auth/credentials.ts, HeaderLines).
    authorizationLines: number | undefined = undefined;
  }
  class ExpressResponse extends ServerResponse {
    // Born with its locals (above): Express's app.handle keeps them.
    locals = newLocals();
  }
  Object.setPrototypeOf(ExpressRequest.prototype, app.request);
  Object.setPrototypeOf(ExpressResponse.prototype, app.response);
  app.request = ExpressRequest.prototype as unknown as Express["request"];
  app.response = ExpressResponse.prototype as unknown as Express["response"];
  const classes: MessageClasses = {
    IncomingMessage: ExpressRequest,
    ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
  };
  installed.set(app, classes);
  return classes;
}

/**
 * Runs one request through a throw-away app built with its message classes; throws naming what
 * an upgrade of Express moved when Express replaces the prototypes or the locals they were born
 * with, or no longer runs a synchronous middleware from `app.handle` synchronously.
 */
export function probeExpressMessages(): void {
  const app = express();
  const classes = expressMessageClasses(app);
  const req = new classes.IncomingMessage(new Socket());
  req.method = "GET";
  req.url = "/";
  const res = new classes.ServerResponse(req);
  const born = (res as unknown as { locals: unknown }).locals;
  const moved: string[] = [];
  let ran = false;
  app.use((seenReq, seenRes) => {
    ran = true;
    if (Object.getPrototypeOf(seenReq) !== classes.IncomingMessage.prototype)
      moved.push("the request's prototype");
    if (Object.getPrototypeOf(seenRes) !== classes.ServerResponse.prototype)
      moved.push("the response's prototype");
    if (seenRes.locals !== born) moved.push("res.locals");
  });
  const handle = app as unknown as (
    a: IncomingMessage,
    b: ServerResponse,
    done: () => void,
  ) => void;
  handle(req, res, () => moved.push("the middleware (the final handler ran instead)"));
  if (!ran && moved.length === 0) moved.push("the middleware (not run synchronously)");
  if (moved.length > 0) {
    throw new Error(
      `express no longer keeps what app.handle is given: ${moved.join(", ")} changed; http-server/express-messages.ts must follow Express's new way of building requests`,
    );
  }
}

// At load: a server built on classes Express no longer honours must not start.
probeExpressMessages();
