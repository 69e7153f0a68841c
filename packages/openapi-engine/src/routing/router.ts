/**
 * The router: the API's entry, the first step after the steps every request takes. A request
 * whose path lies under one of the contract's base paths is resolved to an operation once,
 * before any credential or body is read: the router puts that operation's compiled object on
 * `res.locals.operation` and its path values on `req.params` (as sent, percent-encoded:
 * validation decodes them), and hands the request to one of three lifecycles:
 *
 * - `operation`: a method the path declares (HEAD runs the path's GET);
 * - `options`: OPTIONS on a path that does not declare it itself (answered 204 with `Allow`);
 * - `unmatched`: an unknown path (404) or a method the path lacks (405 with `Allow`). The error
 *   is set on `res.locals.unmatched`, not raised: the credential check and rate limiting still
 *   come first, as the contract's precedence requires (a keyless request to an unknown path
 *   gets 401, counted).
 *
 * Every other request (`next()`) goes on to the app's later layers: the ops routes and their
 * 404. The router finds the base path itself instead of being mounted with Express's
 * `app.use(path, …)`: a mount costs every API request a second layer, a path match, and
 * `req.url` cut and restored (which makes Express parse it again), and it takes one base path
 * where a contract's `servers` may give several.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#server-object
 *
 * The router also composes and runs each lifecycle it hands requests to: `Lifecycle` builds a
 * lifecycle from its typed steps (lifecycle/lifecycle.ts says what a step is) and `compose` runs
 * them in one Express layer.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { type EngineError, engineErrors } from "../errors.js";
import { type Branch, type Step, step } from "../lifecycle/lifecycle.js";
import type { PathEntry, RoutedOperation } from "./table.js";

/** What the router sets for the `operation` lifecycle. */
export interface Routed<Op> {
  /** The operation's compiled object (compiled-operation.ts): everything later steps need of it. */
  operation: Op;
}

/** What the router sets for the `options` lifecycle. */
export interface Preflight {
  /** `Allow` of the path an OPTIONS request asked about. */
  allow: string;
}

/** What the router sets for the `unmatched` lifecycle. */
export interface Unmatched {
  /** The 404 or 405 to answer once the caller is identified and counted. */
  unmatched: EngineError;
}

/** The lifecycles the router hands requests to; `Before` is what was set before the router. */
export interface RouterBranches<Op, Before extends object> {
  /** The lifecycle of each operation (built once per operation, when the router is made). */
  operation: (operation: Op) => Branch<Before & Routed<Op>>;
  options: Branch<Before & Preflight>;
  unmatched: Branch<Before & Unmatched>;
}

/** Where the API lives, as the router needs it. */
export interface ApiPlace {
  /**
   * The contract's base paths (`/v1`; "" for the root), each without a trailing slash. Matched
   * without regard to case, as Express's own mount matches.
   */
  basePaths: readonly string[];
  /**
   * Paths outside the contract that an API at the root must leave to the app's later layers
   * (the ops routes): with a base path of "", every path is under the API.
   */
  outside?: ReadonlySet<string> | undefined;
}

/**
 * The base path `path` lies under (as sent, for `req.baseUrl`), or undefined. Longest first, so
 * `/v1/admin` wins over `/v1`; "" takes every path.
 */
function baseOf(path: string, basePaths: readonly string[]): string | undefined {
  for (const base of basePaths) {
    if (base === "") return "";
    const n = base.length;
    if (path.length > n && path.charCodeAt(n) !== 47 /* "/" */) continue;
    const head = path.slice(0, n);
    if (head === base || head.toLowerCase() === base.toLowerCase()) return head;
  }
  return undefined;
}

/**
 * The router over `table`, after steps that set `Before`. Without `place` the request's path is
 * taken as it is (the router mounted by the caller, as the validation tests' harness does).
 */
export function router<Op extends RoutedOperation, Before extends object>(
  table: PathEntry<Op>[],
  branches: RouterBranches<Op, Before>,
  place: ApiPlace = { basePaths: [""] },
) {
  const basePaths = [...place.basePaths].sort((a, b) => b.length - a.length);
  const outside = place.outside;
  const lifecycles = new Map<Op, Branch<Before & Routed<Op>>>();
  for (const entry of table) {
    for (const operation of entry.byMethod.values()) {
      if (!lifecycles.has(operation)) lifecycles.set(operation, branches.operation(operation));
    }
  }
  return function route(req: Request, res: Response, next: NextFunction): void {
    const full = req.path;
    const base = baseOf(full, basePaths);
    if (base === undefined) {
      next();
      return;
    }
    // `/v1` alone is the API's root, `/` under it, as a mount sees it.
    const path = full.length === base.length ? "/" : full.slice(base.length);
    req.baseUrl = base;
    for (const entry of table) {
      const match = entry.pattern.exec(path);
      if (match === null) continue;
      const operation = entry.byMethod.get(req.method);
      if (operation !== undefined) {
        // Its own object for every request (the validator coerces path values in place), as
        // Express's router gives each request.
        const { names } = operation;
        const params: Record<string, string> = {};
        for (let i = 0; i < names.length; i++) params[names[i] as string] = match[i + 1] ?? "";
        req.params = params;
        (res.locals as Routed<Op>).operation = operation;
        (lifecycles.get(operation) as Branch<Before & Routed<Op>>)(req, res, next);
      } else if (req.method === "OPTIONS") {
        (res.locals as Preflight).allow = entry.allow;
        branches.options(req, res, next);
      } else {
        (res.locals as Unmatched).unmatched = engineErrors.methodNotAllowed(
          req.method,
          entry.allow,
        );
        branches.unmatched(req, res, next);
      }
      return;
    }
    if (outside?.has(full)) {
      req.baseUrl = "";
      next();
      return;
    }
    (res.locals as Unmatched).unmatched = engineErrors.noSuchPath(base + path);
    branches.unmatched(req, res, next);
  };
}

/**
 * The last step of the `options` lifecycle: answers OPTIONS with 204 and `Allow`, without a key
 * (after rate limiting has read, not counted, the caller's window). A CORS preflight from an
 * allowed origin already has its headers.
 */
export const answerOptions = step<Preflight>(function answerOptions(_req, res) {
  res.statusCode = 204;
  res.setHeader("Allow", res.locals.allow);
  res.end();
});

/**
 * The last step of the `unmatched` lifecycle: raises the 404 or 405 the router found, once the
 * caller is identified, counted and checked.
 */
export const refuseUnmatched = step<Unmatched>(function refuseUnmatched(_req, res, next) {
  next(res.locals.unmatched);
});

/** A step called its `next` a second time. */
export class NextCalledTwiceError extends Error {
  constructor(step: string) {
    super(`next() called twice by the step ${step || "(anonymous)"}`);
    this.name = "NextCalledTwiceError";
  }
}

/**
 * One middleware that runs `steps` in order, then passes on to what follows it in Express.
 *
 * Runs a request through a fixed list of steps in one Express layer, as Hono's `compose` does:
 * a router would walk and match a layer per step, which buys nothing for steps every request of
 * a lifecycle takes. A step calls `next()` to go on, `next(err)` to leave for the error handler,
 * or answers; a thrown error or a rejected promise counts as `next(err)`. Each step gets a `next`
 * of its own that works once: a second call is a bug, and leaves as an error naming the step
 * instead of running the steps after it again.
 */
export function compose(steps: readonly RequestHandler[]): RequestHandler {
  const count = steps.length;
  return function composed(req: Request, res: Response, done: NextFunction): void {
    let finished = false;
    const finish = (err?: unknown): void => {
      if (finished) return;
      finished = true;
      done(err);
    };
    const dispatch = (index: number): void => {
      const step = steps[index];
      if (step === undefined) {
        finish();
        return;
      }
      let called = false;
      const next = (err?: unknown): void => {
        if (called) throw new NextCalledTwiceError(step.name);
        called = true;
        if (err !== undefined && err !== null && err !== false) finish(err);
        else if (index + 1 < count) dispatch(index + 1);
        else finish();
      };
      try {
        const result: unknown = step(req, res, next);
        if (result instanceof Promise) {
          result.catch((e: unknown) => finish(e ?? new Error(`${step.name} rejected`)));
        }
      } catch (e) {
        finish(e);
      }
    };
    if (count === 0) finish();
    else dispatch(0);
  };
}

/**
 * Steps in order. `Start` is what is set before the first step; `Have` is that and what every
 * step so far sets.
 */
export class Lifecycle<Start extends object, Have extends object = Start> {
  private constructor(private readonly steps: readonly RequestHandler[]) {}

  /** An empty lifecycle whose first step finds `Start` already set. */
  static after<Start extends object = object>(): Lifecycle<Start> {
    return new Lifecycle<Start>([]);
  }

  /**
   * This lifecycle with `next` at its end. A step that reads a local no earlier step sets does
   * not compile: the second argument then asks for the names it misses.
   */
  use<Needs extends object, Sets extends object>(
    next: Step<Needs, Sets>,
    ..._order: Have extends Needs ? [] : [missing: Exclude<keyof Needs, keyof Have>]
  ): Lifecycle<Start, Have & Sets> {
    return new Lifecycle<Start, Have & Sets>([...this.steps, next as unknown as RequestHandler]);
  }

  /**
   * This lifecycle with `next` at its end when `applies`, unchanged otherwise: for a step that
   * does nothing for some operations (their lifecycles are built one per operation and leave it
   * out). Such a step can set no local: a later step could not tell whether it ran.
   */
  useIf<Needs extends object>(
    applies: boolean,
    next: Step<Needs, Record<never, never>>,
    ..._order: Have extends Needs ? [] : [missing: Exclude<keyof Needs, keyof Have>]
  ): Lifecycle<Start, Have> {
    return applies
      ? new Lifecycle<Start, Have>([...this.steps, next as unknown as RequestHandler])
      : this;
  }

  /** The steps as one Express middleware. */
  handler(): Branch<Start> {
    return compose(this.steps);
  }
}
