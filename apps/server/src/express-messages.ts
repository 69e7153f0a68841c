/**
 * Requests and responses born with Express's prototypes.
 *
 * Express's `app.handle` gives every request and response its prototype (`app.request`,
 * `app.response`) with `Object.setPrototypeOf`, after Node has built them. Node's HTTP server takes
 * the constructors it builds them with; these build each request and response with that prototype
 * from the start, so Express's call finds it already set and changes nothing. The objects, their
 * prototypes and every property are the same as before.
 *
 * Bench (README "Benchmarks"): GET /v1/pets?limit=20 about 1.3x the requests per second, and a
 * third less CPU per request. A version that kept the same prototypes but built the objects with
 * `Reflect.construct(IncomingMessage, args, Derived)` gained nothing: V8 gives such an object a
 * hidden class by a prototype transition, as `setPrototypeOf` does. What pays is an object whose
 * hidden class descends from its own constructor's, which V8 has sized for the properties Node and
 * Express add to it; so the base constructor is called on `this`, not through Reflect.
 */
import { IncomingMessage, ServerResponse } from "node:http";
import type { Express } from "express";

export interface MessageClasses {
  IncomingMessage?: typeof IncomingMessage;
  ServerResponse?: typeof ServerResponse;
}

type PlainConstructor = (this: object, ...args: unknown[]) => void;

/**
 * A constructor that runs `base` on the new object, whose prototype is `prototype`; undefined when
 * `base` is a class (a class constructor cannot be called on `this`), so callers keep Node's own.
 */
export function withPrototype<T extends abstract new (...args: never[]) => object>(
  base: T,
  prototype: object,
): T | undefined {
  if (/^class\b/.test(Function.prototype.toString.call(base))) return undefined;
  const construct = base as unknown as PlainConstructor;
  // Two arguments: Node builds requests with (socket) and responses with (req, options).
  function Derived(this: object, first: unknown, second: unknown) {
    construct.call(this, first, second);
  }
  Derived.prototype = prototype;
  return Derived as unknown as T;
}

/**
 * `createServer` options whose requests and responses have `app`'s prototypes from the start. If a
 * Node version defines either constructor as a class, that one is left as Node's own.
 */
export function expressMessageClasses(app: Express): MessageClasses {
  const classes: MessageClasses = {};
  const request = withPrototype(IncomingMessage, app.request);
  const response = withPrototype(ServerResponse, app.response);
  if (request) classes.IncomingMessage = request;
  if (response) classes.ServerResponse = response;
  return classes;
}
